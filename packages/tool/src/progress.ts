import { PatchsmithError } from '@patchsmith/core';

/** Where a `runEdit` call is; `writing` is the commit point, after which a cancel no longer stops it. */
export type EditStage = 'planning' | 'asking' | 'writing' | 'diagnosing';

/** What `onProgress` hears: the stage entered, and how many files the plan touches (0 before planning). */
export interface EditProgress {
  stage: EditStage;
  files: number;
}

/** The error of a call cancelled through its `AbortSignal` before anything was written. */
export function abortedError(): PatchsmithError {
  return new PatchsmithError('ABORTED', 'the call was cancelled before anything was written');
}

/**
 * Throws `ABORTED` when the host cancelled the call; `runEdit` asks at each stage up to the first
 * write, never after it (a transaction under way finishes or rolls back on its own).
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortedError();
}

/**
 * `throwIfAborted` after one turn of the event loop, when the host can cancel: over synchronous
 * fs calls (`syncFs`) a whole plan runs without a turn, and a cancel that arrived meanwhile (an
 * MCP `notifications/cancelled` on stdin) is read only once the loop gets one.
 */
export async function checkAborted(signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return;
  if (!signal.aborted) await new Promise((resolve) => setImmediate(resolve));
  throwIfAborted(signal);
}

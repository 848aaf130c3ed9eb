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

import {
  type ApplyPatchToolInput,
  type EditInput,
  type EditToolInput,
  toolEdits,
  type UndoOptions,
  type UndoToolInput,
} from '@patchsmith/tool';
import type { AdapterOptions } from './options.js';

/**
 * What the function-calling adapters (Vercel AI SDK, LangChain) share: the three tools' names and
 * descriptions, and how each tool's input becomes a `runEdit` input or `undoLast` options.
 */
export const TOOL_DESCRIPTIONS = {
  apply_patch:
    'Apply a patch to the project, all or nothing (Codex format *** Begin Patch ... *** End Patch, unified diff, ' +
    'or SEARCH/REPLACE blocks). Slightly drifted context still matches; failures show the nearest region.',
  edit: 'Edit files with str_replace / create / insert commands, applied in order, all or nothing.',
  undo: 'Restore the files of the latest edit (or of the snapshot id given).',
} as const;

/** The `runEdit` input of an `apply_patch` call. */
export function patchInput({ patch, format }: ApplyPatchToolInput): EditInput {
  return { kind: 'patch', text: patch, ...(format ? { format } : {}) };
}

/** The `runEdit` input of an `edit` call. */
export function editsInput(input: EditToolInput): EditInput {
  return { kind: 'edits', edits: toolEdits(input) };
}

/** The adapter's options with the SDK's cancel signal of this call, when it gave one (either one cancels). */
export function withSignal(options: AdapterOptions, signal: AbortSignal | null | undefined): AdapterOptions {
  if (!signal) return options;
  return { ...options, signal: options.signal ? AbortSignal.any([options.signal, signal]) : signal };
}

/** `undoLast`'s options for an `undo` call: the adapter's root, gate and lock wait. */
export function undoOptions({ id, force }: UndoToolInput, options: AdapterOptions): UndoOptions {
  return {
    ...(options.root !== undefined ? { root: options.root } : {}),
    ...(id !== null ? { id } : {}),
    force: force ?? false,
    ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
    ...(options.ask ? { ask: options.ask } : {}),
  };
}

import {
  applyPatchInputSchema,
  editToolInputSchema,
  formatForModel,
  formatUndo,
  oneAtATime,
  runEdit,
  toolEdits,
  undoInputSchema,
  undoLast,
} from '@patchsmith/tool';
import { tool } from 'ai';
import type { AdapterOptions } from './options.js';

/**
 * Vercel AI SDK tools: `apply_patch` (a patch text), `edit` (str_replace commands) and `undo`.
 * Each returns the model-facing text; a rejected edit is text too (the model reads why and
 * retries), so `generateText` keeps going rather than failing the step.
 */
export function createVercelTools(options: AdapterOptions = {}) {
  // generateText runs a step's tool calls concurrently; edits must not race.
  const queue = oneAtATime();
  return {
    apply_patch: tool({
      description:
        'Apply a patch to the project, all or nothing (Codex format *** Begin Patch ... *** End Patch, unified diff, ' +
        'or SEARCH/REPLACE blocks). Slightly drifted context still matches; failures show the nearest region.',
      inputSchema: applyPatchInputSchema,
      execute: ({ patch, format }, { abortSignal }) =>
        queue(async () =>
          formatForModel(
            await runEdit(
              { kind: 'patch', text: patch, ...(format ? { format } : {}) },
              { ...options, ...(abortSignal ? { signal: abortSignal } : {}) },
            ),
          ),
        ),
    }),
    edit: tool({
      description:
        'Edit files with str_replace / create / insert commands, applied in order, all or nothing.',
      inputSchema: editToolInputSchema,
      execute: (input, { abortSignal }) =>
        queue(async () =>
          formatForModel(
            await runEdit(
              { kind: 'edits', edits: toolEdits(input) },
              { ...options, ...(abortSignal ? { signal: abortSignal } : {}) },
            ),
          ),
        ),
    }),
    undo: tool({
      description: 'Restore the files of the latest edit (or of the snapshot id given).',
      inputSchema: undoInputSchema,
      execute: ({ id, force }) =>
        queue(async () =>
          formatUndo(
            await undoLast({
              root: options.root,
              ...(id !== null ? { id } : {}),
              force: force ?? false,
              lockTimeoutMs: options.lockTimeoutMs,
            }),
          ),
        ),
    }),
  };
}

import {
  type ApplyPatchToolInput,
  applyPatchInputSchema,
  type EditPlan,
  type EditToolInput,
  editToolInputSchema,
  formatForModel,
  formatUndo,
  oneAtATime,
  type UndoToolInput,
  undoInputSchema,
  undoLast,
} from '@patchsmith/tool';
import { type Tool, tool } from 'ai';
import { createApprovals } from './approvals.js';
import type { AdapterOptions } from './options.js';
import { editsInput, patchInput, TOOL_DESCRIPTIONS, undoOptions, withSignal } from './tool-actions.js';

/** The tools `createVercelTools` makes; each returns the text for the model. */
// A type, not an interface: generateText's `tools` wants an object type with an index signature.
export type VercelTools = {
  apply_patch: Tool<ApplyPatchToolInput, string>;
  edit: Tool<EditToolInput, string>;
  undo: Tool<UndoToolInput, string>;
};

/**
 * Vercel AI SDK tools: `apply_patch` (a patch text), `edit` (str_replace commands) and `undo`.
 * Each returns the model-facing text; a rejected edit is text too (the model reads why and
 * retries), so `generateText` keeps going rather than failing the step.
 *
 * The write tools' `needsApproval` is the permission gate: an edit that writes a path whose rule
 * in `.patchsmith.json` says `ask` stops the step with a `tool-approval-request`; `pendingPlan(tools,
 * toolCallId)` gives the diff to show for it, and the approved call writes exactly that plan.
 */
export function createVercelTools(options: AdapterOptions = {}): VercelTools {
  // generateText runs a step's tool calls concurrently; edits must not race.
  const queue = oneAtATime();
  const approvals = createApprovals(options);
  const tools: VercelTools = {
    apply_patch: tool({
      description: TOOL_DESCRIPTIONS.apply_patch,
      inputSchema: applyPatchInputSchema,
      needsApproval: (input, { toolCallId }) => approvals.needsApproval(patchInput(input), toolCallId),
      execute: (input, { toolCallId, abortSignal }) =>
        queue(async () =>
          formatForModel(
            await approvals.run(patchInput(input), toolCallId, withSignal(options, abortSignal)),
          ),
        ),
    }),
    edit: tool({
      description: TOOL_DESCRIPTIONS.edit,
      inputSchema: editToolInputSchema,
      needsApproval: (input, { toolCallId }) => approvals.needsApproval(editsInput(input), toolCallId),
      execute: (input, { toolCallId, abortSignal }) =>
        queue(async () =>
          formatForModel(
            await approvals.run(editsInput(input), toolCallId, withSignal(options, abortSignal)),
          ),
        ),
    }),
    undo: tool({
      description: TOOL_DESCRIPTIONS.undo,
      inputSchema: undoInputSchema,
      execute: (input) => queue(async () => formatUndo(await undoLast(undoOptions(input, options)))),
    }),
  };
  approvalsOf.set(tools, approvals);
  return tools;
}

/** The approvals behind each tool set, for `pendingPlan`. */
const approvalsOf = new WeakMap<object, ReturnType<typeof createApprovals>>();

/**
 * The plan a `tool-approval-request` of these tools asks about: each file with its diff, to show
 * the person before they answer. Undefined when the call needs no approval (or was answered).
 */
export function pendingPlan(tools: VercelTools, toolCallId: string): EditPlan | undefined {
  return approvalsOf.get(tools)?.pending(toolCallId);
}

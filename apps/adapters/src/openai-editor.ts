import type { ApplyPatchResult, Editor } from '@openai/agents';
import { formatForModel, oneAtATime, runEdit } from '@patchsmith/tool';
import { type ApplyPatchOperation, operationToPatch } from './codex-operation.js';
import type { AdapterOptions } from './options.js';

/** Carries out one apply_patch operation with one `runEdit` call; the output is the model text. */
export async function runApplyPatchOperation(
  operation: ApplyPatchOperation,
  options: AdapterOptions = {},
): Promise<{ status: 'completed' | 'failed'; output: string }> {
  const converted = operationToPatch(operation);
  if (!converted.ok) return { status: 'failed', output: `The patch was rejected: ${converted.message}\n` };
  const report = await runEdit({ kind: 'patch', text: converted.patch, format: 'codex' }, options);
  return { status: report.ok ? 'completed' : 'failed', output: formatForModel(report) };
}

/**
 * An `Editor` for the OpenAI Agents SDK's `applyPatchTool({ editor })`: each create / update /
 * delete operation becomes a Codex patch and one `runEdit` call, so it gets tolerant matching,
 * the path policy, the permission gate, a snapshot and an all-or-nothing write. Operations run one
 * at a time, in the order they come.
 */
export function createOpenAIEditor(options: AdapterOptions = {}): Editor {
  const queue = oneAtATime();
  const run = (operation: ApplyPatchOperation): Promise<ApplyPatchResult> =>
    queue(() => runApplyPatchOperation(operation, options));
  return { createFile: run, updateFile: run, deleteFile: run };
}

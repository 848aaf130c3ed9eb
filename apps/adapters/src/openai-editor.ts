import type { ApplyPatchResult, Editor } from '@openai/agents';
import { oneAtATime } from '@patchsmith/tool';
import { runApplyPatchOperation } from './apply-patch-operation.js';
import type { ApplyPatchOperation } from './codex-operation.js';
import type { AdapterOptions } from './options.js';

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

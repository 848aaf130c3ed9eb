import { formatForModel, runEdit } from '@patchsmith/tool';
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

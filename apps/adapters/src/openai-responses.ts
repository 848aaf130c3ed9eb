import type { ResponseApplyPatchToolCall, ResponseInputItem } from 'openai/resources/responses/responses';
import { runApplyPatchOperation } from './apply-patch-operation.js';
import type { AdapterOptions } from './options.js';

/** The call's `caller` where the installed `openai` has one (6.10 has none): never otherwise. */
type CallerOf<T> = T extends { caller?: infer C } ? C : never;

/**
 * Answers a Responses API `apply_patch_call` output item: carries out its operation and returns
 * the `apply_patch_call_output` item to send back in the next request's `input`.
 */
export async function handleApplyPatchCall(
  call: Pick<ResponseApplyPatchToolCall, 'call_id' | 'operation'> & {
    caller?: CallerOf<ResponseApplyPatchToolCall>;
  },
  options: AdapterOptions = {},
): Promise<ResponseInputItem.ApplyPatchCallOutput> {
  const { status, output } = await runApplyPatchOperation(call.operation, options);
  // The output answers the call's caller (a program's tool call, or the model directly).
  const caller = call.caller !== undefined ? { caller: call.caller } : {};
  return { type: 'apply_patch_call_output', call_id: call.call_id, status, output, ...caller };
}

// The Responses API handler, in a project with `openai` (and no other SDK) installed.
import { handleApplyPatchCall } from '@patchsmith/adapters/openai';
import type { ResponseApplyPatchToolCall, ResponseInputItem } from 'openai/resources/responses/responses';

export async function answer(call: ResponseApplyPatchToolCall): Promise<ResponseInputItem[]> {
  const output: ResponseInputItem.ApplyPatchCallOutput = await handleApplyPatchCall(call, {
    root: '/project',
  });
  // @ts-expect-error: a call needs its operation (this would pass if the handler were `any`)
  await handleApplyPatchCall({ call_id: 'call_1' });
  return [output];
}

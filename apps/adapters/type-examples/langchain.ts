// The LangChain tools, in a project with `@langchain/core` (and no other SDK) installed.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { createLangChainTools } from '@patchsmith/adapters/langchain';

export async function run(model: BaseChatModel) {
  const [applyPatch, edit, undo] = createLangChainTools({ root: '/project' });
  const bound = model.bindTools?.([applyPatch, edit, undo]);
  const text = await applyPatch.invoke({ patch: '*** Begin Patch\n*** End Patch', format: null });
  // @ts-expect-error: apply_patch takes a patch (this would pass if the tools were `any`)
  await applyPatch.invoke({ nothing: true });
  return { bound, text };
}

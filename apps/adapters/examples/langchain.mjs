// LangChain: a chat model bound to the apply_patch / edit / undo tools, with the tool loop as
// LangChain documents it. Any tool-calling chat model works; this one is @langchain/openai's.
//   OPENAI_API_KEY=... node examples/langchain.mjs [project folder]   (npm install @langchain/openai)
import { fileURLToPath } from 'node:url';
import { HumanMessage } from '@langchain/core/messages';
import { createLangChainTools } from '@patchsmith/adapters/langchain';

/** Runs the loop; `model` is any tool-calling chat model (a test passes LangChain's fake one). */
export async function main({ model, root = process.cwd(), prompt = 'Create NOTES.md.' }) {
  // readme:start
  const tools = createLangChainTools({ root });
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  const bound = model.bindTools(tools);
  const messages = [new HumanMessage(prompt)];
  for (let turn = 0; turn < 10; turn++) {
    const reply = await bound.invoke(messages);
    messages.push(reply);
    if (!reply.tool_calls?.length) return reply.content;
    for (const call of reply.tool_calls) messages.push(await byName[call.name].invoke(call));
  }
  // readme:end
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.env.OPENAI_API_KEY) {
    console.error('Set OPENAI_API_KEY to run this example.');
    process.exit(2);
  }
  const { ChatOpenAI } = await import('@langchain/openai');
  console.log(await main({ model: new ChatOpenAI({ model: 'gpt-5.1' }), root: process.argv[2] }));
}

// An OpenAI Agents SDK agent whose apply_patch tool writes through patchsmith.
//   OPENAI_API_KEY=... node examples/openai-agents.mjs [project folder]
import { fileURLToPath } from 'node:url';
import { Agent, applyPatchTool, run } from '@openai/agents';
import { createOpenAIEditor } from '@patchsmith/adapters/openai-agents';

/** Runs the agent; `model` is a model name or any Agents SDK `Model` (a test passes a scripted one). */
export async function main({ model = 'gpt-5.1', root = process.cwd(), prompt = 'Create NOTES.md.' } = {}) {
  // readme:start
  const agent = new Agent({
    name: 'editor',
    model,
    instructions: 'You edit files in the project with the apply_patch tool.',
    tools: [applyPatchTool({ editor: createOpenAIEditor({ root }) })],
  });
  const result = await run(agent, prompt);
  // readme:end
  return result.finalOutput;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.env.OPENAI_API_KEY) {
    console.error('Set OPENAI_API_KEY to run this example.');
    process.exit(2);
  }
  console.log(await main({ root: process.argv[2] }));
}

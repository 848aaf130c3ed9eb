// An OpenAI Agents SDK agent whose apply_patch tool writes through patchsmith.
//   OPENAI_API_KEY=... node examples/openai-agents.mjs [project folder]
import { Agent, applyPatchTool, run } from '@openai/agents';
import { createOpenAIEditor } from '@patchsmith/adapters';

if (!process.env.OPENAI_API_KEY) {
  console.error('Set OPENAI_API_KEY to run this example.');
  process.exit(2);
}
const root = process.argv[2] ?? process.cwd();
const agent = new Agent({
  name: 'editor',
  model: 'gpt-5.1',
  instructions: 'You edit files in the project with the apply_patch tool.',
  tools: [applyPatchTool({ editor: createOpenAIEditor({ root }) })],
});
const result = await run(agent, 'Create NOTES.md with a one-line summary of what a patch is.');
console.log(result.finalOutput);

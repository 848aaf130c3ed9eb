// Claude's text editor tool (str_replace_based_edit_tool) served by patchsmith, with the SDK's
// tool runner driving the loop.
//   ANTHROPIC_API_KEY=... node examples/anthropic-tool-runner.mjs [project folder]
import Anthropic from '@anthropic-ai/sdk';
import { createTextEditorRunnableTool } from '@patchsmith/adapters';

if (!process.env.ANTHROPIC_API_KEY) {
  console.error('Set ANTHROPIC_API_KEY to run this example.');
  process.exit(2);
}
const root = process.argv[2] ?? process.cwd();
const client = new Anthropic();
const final = await client.beta.messages.toolRunner({
  model: 'claude-sonnet-5-5',
  max_tokens: 4096,
  messages: [{ role: 'user', content: 'Look at the project folder, then add a NOTES.md summarising it in one line.' }],
  tools: [createTextEditorRunnableTool({ root })],
});
console.log(final.content.filter((block) => block.type === 'text').map((block) => block.text).join('\n'));

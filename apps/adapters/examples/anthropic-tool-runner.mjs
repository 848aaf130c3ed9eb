// Claude's text editor tool (str_replace_based_edit_tool) served by patchsmith, with the SDK's
// tool runner driving the loop.
//   ANTHROPIC_API_KEY=... node examples/anthropic-tool-runner.mjs [project folder]
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { createTextEditorRunnableTool } from '@patchsmith/adapters/anthropic';

/** Runs the tool loop; `client` is any Anthropic client (a test passes one whose fetch is scripted). */
export async function main({
  client = new Anthropic(),
  root = process.cwd(),
  prompt = 'Create NOTES.md.',
} = {}) {
  // readme:start
  const final = await client.beta.messages.toolRunner({
    model: 'claude-sonnet-5-5',
    max_tokens: 4096,
    messages: [{ role: 'user', content: prompt }],
    tools: [createTextEditorRunnableTool({ root, maxCharacters: 40_000 })],
  });
  // readme:end
  return final.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.env.ANTHROPIC_API_KEY) {
    console.error('Set ANTHROPIC_API_KEY to run this example.');
    process.exit(2);
  }
  console.log(await main({ root: process.argv[2] }));
}

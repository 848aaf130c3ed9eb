// Vercel AI SDK: the apply_patch / edit / undo tools in generateText. The model id goes through
// the AI Gateway (AI_GATEWAY_API_KEY); any provider's model object works the same way.
//   AI_GATEWAY_API_KEY=... node examples/vercel-ai.mjs [project folder]
import { createVercelTools } from '@patchsmith/adapters/vercel';
import { generateText, stepCountIs } from 'ai';

if (!process.env.AI_GATEWAY_API_KEY) {
  console.error('Set AI_GATEWAY_API_KEY to run this example.');
  process.exit(2);
}
const root = process.argv[2] ?? process.cwd();
const result = await generateText({
  model: 'openai/gpt-5.1',
  tools: createVercelTools({ root }),
  stopWhen: stepCountIs(10),
  prompt: 'Create NOTES.md with a one-line summary of what a patch is, using the edit tool.',
});
console.log(result.text);

// The Responses API's built-in apply_patch tool, with the loop written by hand: every
// apply_patch_call is answered with the apply_patch_call_output patchsmith produces.
//   OPENAI_API_KEY=... node examples/openai-responses.mjs [project folder]
import { handleApplyPatchCall } from '@patchsmith/adapters';
import OpenAI from 'openai';

if (!process.env.OPENAI_API_KEY) {
  console.error('Set OPENAI_API_KEY to run this example.');
  process.exit(2);
}
const root = process.argv[2] ?? process.cwd();
const client = new OpenAI();
let response = await client.responses.create({
  model: 'gpt-5.1',
  tools: [{ type: 'apply_patch' }],
  input: 'Create NOTES.md with a one-line summary of what a patch is.',
});
for (let turn = 0; turn < 10; turn++) {
  const calls = response.output.filter((item) => item.type === 'apply_patch_call');
  if (calls.length === 0) break;
  const outputs = [];
  for (const call of calls) outputs.push(await handleApplyPatchCall(call, { root }));
  response = await client.responses.create({
    model: 'gpt-5.1',
    tools: [{ type: 'apply_patch' }],
    previous_response_id: response.id,
    input: outputs,
  });
}
console.log(response.output_text);

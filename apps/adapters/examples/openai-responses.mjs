// The Responses API's built-in apply_patch tool, with the loop written by hand: every
// apply_patch_call is answered with the apply_patch_call_output patchsmith produces.
//   OPENAI_API_KEY=... node examples/openai-responses.mjs [project folder]
import { fileURLToPath } from 'node:url';
import { handleApplyPatchCall } from '@patchsmith/adapters/openai';
import OpenAI from 'openai';

/** The whole loop; `client` is any OpenAI client (a test passes one whose fetch is scripted). */
export async function main({
  client = new OpenAI(),
  root = process.cwd(),
  prompt = 'Create NOTES.md.',
} = {}) {
  // readme:start
  const tools = [{ type: 'apply_patch' }];
  let response = await client.responses.create({ model: 'gpt-5.1', tools, input: prompt });
  for (let turn = 0; turn < 10; turn++) {
    const calls = response.output.filter((item) => item.type === 'apply_patch_call');
    if (calls.length === 0) break;
    const input = [];
    for (const call of calls) input.push(await handleApplyPatchCall(call, { root }));
    response = await client.responses.create({
      model: 'gpt-5.1',
      tools,
      previous_response_id: response.id,
      input,
    });
  }
  // readme:end
  return response.output_text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.env.OPENAI_API_KEY) {
    console.error('Set OPENAI_API_KEY to run this example.');
    process.exit(2);
  }
  console.log(await main({ root: process.argv[2] }));
}

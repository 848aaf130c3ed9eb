// Vercel AI SDK: the apply_patch / edit / undo tools in generateText, with the permission gate
// as the SDK's approval step. The model id goes through the AI Gateway (AI_GATEWAY_API_KEY); any
// provider's model object works the same way.
//   AI_GATEWAY_API_KEY=... node examples/vercel-ai.mjs [project folder]
import { fileURLToPath } from 'node:url';
import { createVercelTools, pendingPlan } from '@patchsmith/adapters/vercel';
import { generateText, stepCountIs } from 'ai';

/**
 * Runs the edit; `approve(plan)` answers an approval request (paths whose rule says `ask`) after
 * showing its diff. `model` is a model id or any AI SDK model (a test passes the mock one).
 */
export async function main({
  model = 'openai/gpt-5.1',
  root = process.cwd(),
  prompt = 'Create NOTES.md.',
  approve,
}) {
  // readme:start
  const tools = createVercelTools({ root });
  const messages = [{ role: 'user', content: prompt }];
  for (;;) {
    const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(10) });
    messages.push(...result.response.messages);
    const requests = result.content.filter((part) => part.type === 'tool-approval-request');
    if (requests.length === 0) return result.text;
    const answers = [];
    for (const { approvalId, toolCall } of requests) {
      const plan = pendingPlan(tools, toolCall.toolCallId); // each file with its diff
      answers.push({ type: 'tool-approval-response', approvalId, approved: await approve(plan) });
    }
    messages.push({ role: 'tool', content: answers });
  }
  // readme:end
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.env.AI_GATEWAY_API_KEY) {
    console.error('Set AI_GATEWAY_API_KEY to run this example.');
    process.exit(2);
  }
  const approve = (plan) => {
    for (const file of plan?.files ?? []) console.log(file.diff);
    return true; // a real host asks the person here
  };
  console.log(await main({ root: process.argv[2], approve }));
}

// The Vercel AI SDK tools, in a project with `ai` (and no other SDK) installed.
import { createVercelTools, pendingPlan } from '@patchsmith/adapters/vercel';
import { generateText, type LanguageModel, stepCountIs } from 'ai';

export async function run(model: LanguageModel): Promise<string[]> {
  const tools = createVercelTools({ root: '/project' });
  const result = await generateText({ model, tools, prompt: 'Edit', stopWhen: stepCountIs(5) });
  const diffs: string[] = [];
  for (const part of result.content) {
    if (part.type !== 'tool-approval-request') continue;
    for (const file of pendingPlan(tools, part.toolCall.toolCallId)?.files ?? []) diffs.push(file.diff);
  }
  // @ts-expect-error: a tool is not a string (this would pass if createVercelTools were `any`)
  const wrong: string = tools.apply_patch;
  return [...diffs, wrong];
}

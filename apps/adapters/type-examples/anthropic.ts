// The text editor tool, in a project with `@anthropic-ai/sdk` (and no other SDK) installed.
import type Anthropic from '@anthropic-ai/sdk';
import {
  createTextEditorRunnableTool,
  handleTextEditorCommand,
  TEXT_EDITOR_TOOL,
} from '@patchsmith/adapters/anthropic';

export async function run(client: Anthropic) {
  const tools: Anthropic.Messages.ToolUnion[] = [TEXT_EDITOR_TOOL];
  const final = await client.beta.messages.toolRunner({
    model: 'claude-sonnet-5-5',
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'Fix primes.py' }],
    tools: [createTextEditorRunnableTool({ root: '/project', maxCharacters: 20_000 })],
  });
  const result = await handleTextEditorCommand({ command: 'view', path: 'primes.py' });
  // @ts-expect-error: the content is text (this would pass if the handler were `any`)
  const wrong: number = result.content;
  return { tools, final, wrong };
}

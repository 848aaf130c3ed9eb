// The Agents SDK editor, in a project with `@openai/agents` (and no other SDK) installed.
import { Agent, applyPatchTool } from '@openai/agents';
import { createOpenAIEditor } from '@patchsmith/adapters/openai-agents';

const editor = createOpenAIEditor({ root: '/project' });
export const agent = new Agent({ name: 'editor', tools: [applyPatchTool({ editor })] });
// @ts-expect-error: an Editor is not a string (this would pass if createOpenAIEditor were `any`)
export const wrong: string = createOpenAIEditor();

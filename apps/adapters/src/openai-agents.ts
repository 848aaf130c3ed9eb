// `@patchsmith/adapters/openai-agents`: the OpenAI Agents SDK's `Editor` (types of `@openai/agents` only).
export { createOpenAIEditor } from './openai-editor.js';
export type { AdapterOptions } from './options.js';

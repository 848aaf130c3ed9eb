// `@patchsmith/adapters/anthropic`: Claude's text editor tool (types of `@anthropic-ai/sdk` only).
export type { TextEditorInput, TextEditorOptions, TextEditorResult } from './anthropic-text-editor.js';
export {
  createTextEditorRunnableTool,
  handleTextEditorCommand,
  TEXT_EDITOR_TOOL,
} from './anthropic-text-editor.js';

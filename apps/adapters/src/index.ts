// The main entry loads no optional SDK at run time (their types only); the Vercel AI SDK tools,
// which call `ai`'s `tool()`, live at `@patchsmith/adapters/vercel`.

// The permission pieces every adapter's `ask` option is built from, so one install is enough.
export type { PermissionPolicy, PermissionPrompt, PermissionRequest } from '@patchsmith/tool';
export { createPermissionGate, loadPolicy } from '@patchsmith/tool';
export type { TextEditorInput, TextEditorOptions, TextEditorResult } from './anthropic-text-editor.js';
export {
  createTextEditorRunnableTool,
  handleTextEditorCommand,
  TEXT_EDITOR_TOOL,
} from './anthropic-text-editor.js';
export type { ApplyPatchOperation, OperationPatch } from './codex-operation.js';
export { operationToPatch } from './codex-operation.js';
export { createOpenAIEditor, runApplyPatchOperation } from './openai-editor.js';
export { handleApplyPatchCall } from './openai-responses.js';
export type { AdapterOptions } from './options.js';

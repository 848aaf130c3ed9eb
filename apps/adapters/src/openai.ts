// `@patchsmith/adapters/openai`: the Responses API's built-in apply_patch tool (types of `openai` only).
export { runApplyPatchOperation } from './apply-patch-operation.js';
export type { ApplyPatchOperation } from './codex-operation.js';
export { handleApplyPatchCall } from './openai-responses.js';
export type { AdapterOptions } from './options.js';

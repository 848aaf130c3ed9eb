// The main entry needs no SDK, not even its types: each SDK's adapter is its own entry
// (`@patchsmith/adapters/openai`, `/openai-agents`, `/anthropic`, `/vercel`, `/langchain`), so a
// user of one installs and type-checks only that SDK.

// The permission pieces every adapter's `ask` option is built from, so one install is enough.
export type { PermissionPolicy, PermissionPrompt, PermissionRequest } from '@patchsmith/tool';
export { createPermissionGate, loadPolicy } from '@patchsmith/tool';
export { runApplyPatchOperation } from './apply-patch-operation.js';
export type { ApplyPatchOperation, OperationPatch } from './codex-operation.js';
export { operationToPatch } from './codex-operation.js';
export type { AdapterOptions } from './options.js';

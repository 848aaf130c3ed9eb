// `@patchsmith/adapters/vercel`: the Vercel AI SDK tools (loads `ai` at run time, for `tool()`).
export type { EditPlan, PlanFile } from '@patchsmith/tool';
export type { AdapterOptions } from './options.js';
export { createVercelTools, pendingPlan, type VercelTools } from './vercel-tools.js';

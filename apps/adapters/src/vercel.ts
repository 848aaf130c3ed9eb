// `@patchsmith/adapters/vercel`: kept apart from the main entry because it loads `ai` at run time.
export { createVercelTools } from './vercel-tools.js';

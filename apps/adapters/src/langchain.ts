// `@patchsmith/adapters/langchain`: LangChain tools (loads `@langchain/core` at run time, for `tool()`).
export { createLangChainTools } from './langchain-tools.js';
export type { AdapterOptions } from './options.js';

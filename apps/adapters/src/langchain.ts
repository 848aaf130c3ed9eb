// `@patchsmith/adapters/langchain`: LangChain tools (loads `@langchain/core` at run time, for `tool()`).
export { createLangChainTools, type LangChainTools } from './langchain-tools.js';
export type { AdapterOptions } from './options.js';

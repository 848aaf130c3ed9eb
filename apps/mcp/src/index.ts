// The patchsmith MCP server: `createMcpServer` for any transport, `serveMcpStdio` and `mcpMain`
// (the `patchsmith-mcp` bin and `patchsmith mcp`) for stdio.
export type { ClientRoots } from './call-root.js';
export type { PolicySource } from './gate.js';
export type { McpArgs, McpMainIo } from './mcp-args.js';
export { MCP_USAGE, mcpMain, mcpOptionsFromArgs } from './mcp-args.js';
export type { McpServerOptions } from './mcp-server.js';
export { createMcpServer, DEFAULT_MAX_VIEW_CHARACTERS, serveMcpStdio } from './mcp-server.js';
export type { StdioLineTransportOptions } from './stdio-line-transport.js';
export { DEFAULT_MAX_MESSAGE_BYTES, StdioLineTransport } from './stdio-line-transport.js';

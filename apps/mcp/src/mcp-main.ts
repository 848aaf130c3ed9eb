#!/usr/bin/env node
import { mcpMain } from './mcp-args.js';

// The MCP server as a process: the `patchsmith-mcp` bin (and `patchsmith mcp` of the CLI) run it.
// `node dist/mcp-main.js [--cwd DIR] [--first-match] [--no-snapshot]`.
const status = await mcpMain(process.argv.slice(2));
if (status !== 0) process.exitCode = status;

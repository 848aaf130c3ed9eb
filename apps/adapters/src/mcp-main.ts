#!/usr/bin/env node
import { mcpMain } from './mcp-args.js';

// The `patchsmith mcp` entry point: `node dist/mcp-main.js [--cwd DIR] [--first-match] [--no-snapshot]`.
const status = await mcpMain(process.argv.slice(2));
if (status !== 0) process.exitCode = status;

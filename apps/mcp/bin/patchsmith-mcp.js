#!/usr/bin/env node
// Committed launcher: the bin links before the first build, and runs the built MCP server entry.
import '../dist/mcp-main.js';

// Runs offline: starts the patchsmith MCP server on a scratch folder, the way an MCP client
// (Claude Desktop, Cursor, an agent) would, and calls its tools.
//   pnpm run build && node examples/mcp-client.mjs
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = await mkdtemp(join(tmpdir(), 'patchsmith-example-'));
await writeFile(join(root, 'hello.py'), 'def greet():\n    return "hi"\n');

const server = fileURLToPath(new URL('../dist/mcp-main.js', import.meta.url));
const client = new Client({ name: 'example', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, '--cwd', root] }));

const { tools } = await client.listTools();
console.log('tools:', tools.map((t) => t.name).join(', '));

const patch = `*** Begin Patch
*** Update File: hello.py
@@ def greet():
-    return "hi"
+    return "hello"
*** End Patch`;
const applied = await client.callTool({ name: 'apply_patch', arguments: { patch } });
console.log(applied.content[0].text);
console.log('hello.py is now:', JSON.stringify(await readFile(join(root, 'hello.py'), 'utf8')));

const undone = await client.callTool({ name: 'undo', arguments: {} });
console.log(undone.content[0].text);
await client.close();
await rm(root, { recursive: true, force: true });

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

const server = fileURLToPath(new URL('../bin/patchsmith-mcp.js', import.meta.url));
const client = new Client({ name: 'example', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, '--cwd', root] }));

const { tools } = await client.listTools();
console.log('tools:', tools.map((t) => t.name).join(', '));

const viewed = await client.callTool({ name: 'view', arguments: { path: 'hello.py', view_range: null } });
console.log(viewed.content[0].text);

// Every field is sent (null when not wanted): the schemas are those of OpenAI's strict mode.
const patch = `*** Begin Patch
*** Update File: hello.py
@@ def greet():
-    return "hi"
+    return "hello"
*** End Patch`;
const preview = await client.callTool({ name: 'apply_patch', arguments: { patch, format: null, preview: true } });
console.log(preview.content[0].text);
const applied = await client.callTool({ name: 'apply_patch', arguments: { patch, format: null, preview: null } });
console.log(applied.content[0].text);
console.log('snapshot:', applied.structuredContent.snapshot);
console.log('hello.py is now:', JSON.stringify(await readFile(join(root, 'hello.py'), 'utf8')));

const undone = await client.callTool({ name: 'undo', arguments: { id: null, force: null } });
console.log(undone.content[0].text);
await client.close();
await rm(root, { recursive: true, force: true });

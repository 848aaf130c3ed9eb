/** The real `patchsmith mcp` process, fed raw lines: every request is answered and the server stays up. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpServer } from './mcp-server.js';
import { tempProject } from '../../../tooling/test-support/fixtures.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const serverArgs = (root: string, extra: string[] = []) => [
  '--import',
  here('../../../tooling/test-support/register-ts.mjs'),
  here('./mcp-main.ts'),
  '--cwd',
  root,
  ...extra,
];

interface Reply {
  id: string | number | null;
  result?: { tools?: { name: string }[]; protocolVersion?: string };
  error?: { code: number; message: string };
}

/** The server process with raw access to its stdin, and its replies in the order they come. */
function rawServer(root: string, extra: string[] = []) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, serverArgs(root, extra));
  const replies: Reply[] = [];
  const waiting: ((reply: Reply) => void)[] = [];
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    buffered += text;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const reply = JSON.parse(buffered.slice(0, end)) as Reply;
      buffered = buffered.slice(end + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(reply);
      else replies.push(reply);
    }
  });
  child.stderr.resume();
  return {
    child,
    write: (line: string) => new Promise<void>((resolve) => child.stdin.write(`${line}\n`, () => resolve())),
    next: () =>
      new Promise<Reply>((resolve) => {
        const ready = replies.shift();
        if (ready) resolve(ready);
        else waiting.push(resolve);
      }),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.stdin.end();
      child.kill();
      await once(child, 'exit');
    },
  };
}

const request = (id: number, method: string, params?: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) });

async function initialize(server: ReturnType<typeof rawServer>): Promise<void> {
  await server.write(
    request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    }),
  );
  expect((await server.next()).result?.protocolVersion).toBeDefined();
  await server.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function project(files: Record<string, string> = {}) {
  const made = await tempProject(files);
  cleanup.push(made.remove);
  return made;
}

describe('the MCP server fed raw lines', () => {
  it('answers malformed JSON, invalid params, a batch and a 12 MiB message with errors, then serves', async () => {
    const { root } = await project({ 'a.txt': 'one\n' });
    const server = rawServer(root);
    cleanup.push(server.stop);
    await initialize(server);

    await server.write('{"jsonrpc": "2.0", "id": 2, "method": ');
    expect(await server.next()).toMatchObject({ id: null, error: { code: -32700 } });

    await server.write(request(3, 'tools/list', 'hello'));
    expect(await server.next()).toMatchObject({ id: 3, error: { code: -32602 } });

    await server.write(`[${request(4, 'tools/list')}]`);
    expect(await server.next()).toMatchObject({ id: null, error: { code: -32600 } });

    await server.write(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list', extra: true }));
    expect(await server.next()).toMatchObject({ id: 5, error: { code: -32600 } });

    // As the SDK's client writes it, the id comes last, after 12 MiB of patch.
    const patch = `*** Begin Patch\n*** Add File: big.txt\n${'+x\n'.repeat(4 * 1024 * 1024)}*** End Patch`;
    await server.write(
      `{"method":"tools/call","params":{"name":"apply_patch","arguments":${JSON.stringify({ patch })}},"jsonrpc":"2.0","id":6}`,
    );
    const tooLarge = await server.next();
    expect(tooLarge).toMatchObject({ id: 6, error: { code: -32600 } });
    expect(tooLarge.error?.message).toMatch(/over the limit of 10485760 bytes/);

    await server.write(JSON.stringify('y'.repeat(11 * 1024 * 1024)));
    expect(await server.next()).toMatchObject({ id: null, error: { code: -32600 } });

    await server.write(request(7, 'tools/call', { name: 5 }));
    expect(await server.next()).toMatchObject({
      id: 7,
      error: {
        code: -32602,
        message: 'Invalid params: params.name: Invalid input: expected string, received number',
      },
    });

    // A Latin-1 byte in a patch: read leniently it would be written as U+FFFD.
    await new Promise<void>((resolve) =>
      server.child.stdin.write(
        Buffer.concat([
          Buffer.from(request(9, 'tools/list', { x: 'caf' }).replace('caf', 'caf\u0000')),
          Buffer.from('\n'),
        ]).map((byte) => (byte === 0 ? 0xe9 : byte)),
        () => resolve(),
      ),
    );
    expect(await server.next()).toMatchObject({
      id: null,
      error: { code: -32700, message: /not valid UTF-8/ },
    });

    await server.write(request(8, 'tools/list'));
    const listed = await server.next();
    expect(listed.id).toBe(8);
    expect(listed.result?.tools?.map((t) => t.name).sort()).toEqual([
      'apply_patch',
      'edit',
      'log',
      'undo',
      'view',
    ]);
    expect(server.child.exitCode).toBeNull();
  });

  it('takes its message limit from --max-message-bytes', async () => {
    const { root } = await project();
    const server = rawServer(root, ['--max-message-bytes', '2000']);
    cleanup.push(server.stop);
    await initialize(server);
    await server.write(request(2, 'tools/list', { _meta: { pad: 'z'.repeat(2_000) } }));
    expect(await server.next()).toMatchObject({ id: 2, error: { code: -32600 } });
    await server.write(request(3, 'tools/list'));
    expect((await server.next()).result?.tools).toHaveLength(5);
  });
});

function textOf(result: unknown): string {
  return (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

async function client(root: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: serverArgs(root),
    stderr: 'pipe',
  });
  const connected = new Client({ name: 'test', version: '1.0.0' });
  await connected.connect(transport);
  cleanup.push(() => connected.close());
  return connected;
}

const addFile = (path: string) => ({
  name: 'apply_patch',
  arguments: {
    patch: `*** Begin Patch\n*** Add File: ${path}\n+x\n*** End Patch`,
    format: null,
    preview: null,
  },
});

describe('the MCP server and broken input files', () => {
  it('a broken .patchsmith.json is a tool error, read again at every call, never the end of the server', async () => {
    const files = await project({ '.patchsmith.json': '{"permissions": "all"' });
    const mcp = await client(files.root);

    const broken = await mcp.callTool(addFile('a.txt'));
    expect(broken.isError).toBe(true);
    expect(textOf(broken)).toContain('PARSE_ERROR (.patchsmith.json): .patchsmith.json: not valid JSON');
    await expect(files.read('a.txt')).rejects.toThrow();

    await files.write('.patchsmith.json', '{"permissions": [{"match": "secret/**", "action": "deny"}]}');
    const fixed = await mcp.callTool(addFile('a.txt'));
    expect(fixed.isError).toBe(false);
    expect(await files.read('a.txt')).toBe('x\n');
    // The rules now read are the ones applied.
    const denied = await mcp.callTool(addFile('secret/key.txt'));
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('DENIED');

    await files.write('.patchsmith.json', '{"permissions": [{"match": "*", "action": "sometimes"}]}');
    const invalid = await mcp.callTool(addFile('b.txt'));
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('PARSE_ERROR');
    expect((await mcp.listTools()).tools).toHaveLength(5);
  });

  it('a broken transaction journal is a tool error, and the server goes on', async () => {
    const files = await project({ 'a.txt': 'one\n' });
    await mkdir(join(files.root, '.patchsmith', 'txn'), { recursive: true });
    await files.write('.patchsmith/txn/journal.json', '{"temp": "../x", ');
    const mcp = await client(files.root);
    const update = {
      name: 'apply_patch',
      arguments: {
        patch: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch',
        format: null,
        preview: null,
      },
    };
    const refused = await mcp.callTool(update);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('.patchsmith/txn/journal.json');
    expect(await files.read('a.txt')).toBe('one\n');
    expect((await mcp.listTools()).tools).toHaveLength(5);
  });
});

describe('createMcpServer and a call that throws', () => {
  it('answers an unexpected exception as an IO_ERROR tool error, and serves the next call', async () => {
    const files = await project({ 'a.txt': 'one\n' });
    let calls = 0;
    const server = createMcpServer({
      root: files.root,
      snapshot: false,
      ask: async () => {
        calls++;
        if (calls === 1) throw new Error('EIO: i/o error, read');
        return 'yes' as const;
      },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const mcp = new Client({ name: 'test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), mcp.connect(clientSide)]);
    cleanup.push(() => mcp.close());
    const thrown = await mcp.callTool(addFile('b.txt'));
    expect(thrown.isError).toBe(true);
    expect(textOf(thrown)).toBe('IO_ERROR: EIO: i/o error, read');
    expect((await mcp.callTool(addFile('b.txt'))).isError).toBe(false);
    expect(await files.read('b.txt')).toBe('x\n');
  });
});

import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { PatchsmithFs } from '@patchsmith/core';
import { Volume } from 'memfs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempProject } from '../../../tooling/test-support/fixtures.js';
import { createMcpServer } from './mcp-server.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

type Project = Awaited<ReturnType<typeof tempProject>>;

/** A real client talking to `mcp-main.ts` run from source in a child process. */
async function connect(root: string, configure?: (client: Client) => void) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      '--import',
      here('../../../tooling/test-support/register-ts.mjs'),
      here('./mcp-main.ts'),
      '--cwd',
      root,
    ],
    stderr: 'pipe',
  });
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    { capabilities: configure ? { elicitation: {} } : {} },
  );
  configure?.(client);
  await client.connect(transport);
  return client;
}

function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

describe('the MCP server over stdio', () => {
  let project: Project;
  let client: Client | undefined;
  beforeEach(async () => {
    project = await tempProject({
      'src/app.ts': 'export function greet() {\n  return "hi";\n}\n',
      'twice.txt': 'same\nother\nsame\n',
    });
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await project.remove();
  });

  it('lists its tools, applies a patch, reports AMBIGUOUS as an error result, undoes, refuses bad arguments', async () => {
    client = await connect(project.root);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['apply_patch', 'edit', 'log', 'undo', 'view']);
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
    expect(tools.find((t) => t.name === 'apply_patch')?.inputSchema.required).toEqual([
      'patch',
      'format',
      'preview',
    ]);

    const applied = await client.callTool({
      name: 'apply_patch',
      arguments: {
        format: null,
        preview: null,
        patch:
          '*** Begin Patch\n*** Update File: src/app.ts\n@@\n export function greet() {\n-  return "hi";\n+  return "hello";\n }\n*** End Patch',
      },
    });
    expect(applied.isError).toBe(false);
    expect(textOf(applied)).toBe('Patch applied.\n[M] src/app.ts (+1 -1)\n');
    expect(await project.read('src/app.ts')).toContain('return "hello";');

    const ambiguous = await client.callTool({
      name: 'apply_patch',
      arguments: {
        patch: '*** Begin Patch\n*** Update File: twice.txt\n@@\n-same\n+changed\n*** End Patch',
        format: null,
        preview: null,
      },
    });
    expect(ambiguous.isError).toBe(true);
    expect(textOf(ambiguous)).toContain('AMBIGUOUS');
    expect(textOf(ambiguous)).toContain('candidates at lines 1, 3');
    expect(await project.read('twice.txt')).toBe('same\nother\nsame\n');

    const undone = await client.callTool({ name: 'undo', arguments: { id: null, force: null } });
    expect(undone.isError).toBe(false);
    expect(textOf(undone)).toMatch(/^Undone \S+; the files are back/);
    expect(await project.read('src/app.ts')).toContain('return "hi";');

    const nothingLeft = await client.callTool({ name: 'undo', arguments: { id: null, force: null } });
    expect(nothingLeft.isError).toBe(true);
    expect(textOf(nothingLeft)).toContain('NO_SNAPSHOT');

    const malformed = await client.callTool({ name: 'apply_patch', arguments: { text: 'wrong field' } });
    expect(malformed.isError).toBe(true);
    expect(await project.read('src/app.ts')).toContain('return "hi";');
  });

  it('applies the permission policy of .patchsmith.json', async () => {
    await project.write(
      '.patchsmith.json',
      JSON.stringify({
        permissions: [
          { match: 'src/**', action: 'deny' },
          { match: '*.txt', action: 'ask' },
        ],
      }),
    );
    client = await connect(project.root);
    const denied = await client.callTool({
      name: 'apply_patch',
      arguments: {
        patch: '*** Begin Patch\n*** Add File: src/new.ts\n+x\n*** End Patch',
        format: null,
        preview: null,
      },
    });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('DENIED');
    expect(textOf(denied)).toContain(
      'src/new.ts (rule 1 {"match": "src/**", "action": "deny"} of .patchsmith.json)',
    );

    // This client cannot be asked (no elicitation): an `ask` path is refused with how to allow it.
    const asked = await client.callTool({
      name: 'apply_patch',
      arguments: {
        patch: '*** Begin Patch\n*** Add File: notes.txt\n+x\n*** End Patch',
        format: null,
        preview: null,
      },
    });
    expect(asked.isError).toBe(true);
    expect(textOf(asked)).toContain('{"match": "notes.txt", "action": "allow"}');
  });

  it('asks an elicitation-capable client about `ask` paths and remembers "always"', async () => {
    await project.write(
      '.patchsmith.json',
      JSON.stringify({ permissions: [{ match: '*.txt', action: 'ask' }] }),
    );
    const questions: string[] = [];
    client = await connect(project.root, (c) =>
      c.setRequestHandler(ElicitRequestSchema, async (request) => {
        questions.push(request.params.message);
        return { action: 'accept', content: { answer: 'always' } };
      }),
    );
    const add = (n: number) => ({
      name: 'apply_patch',
      arguments: {
        patch: `*** Begin Patch\n*** Add File: notes.txt\n+v${n}\n*** End Patch`,
        format: null,
        preview: null,
      },
    });
    expect((await client.callTool(add(1))).isError).toBe(false);
    expect((await client.callTool(add(2))).isError).toBe(false);
    expect(questions).toHaveLength(1);
    // The person approves what will be written: the question carries the diff.
    expect(questions[0]).toMatch(/^patchsmith wants to write notes\.txt\. Allow it\?\n\n[\s\S]*\+v1\n/);
    expect(await project.read('notes.txt')).toBe('v2\n');
  });

  it('undo passes the deny rules of now, force or not: a later hand edit of a denied file stays', async () => {
    client = await connect(project.root);
    const applied = await client.callTool({
      name: 'apply_patch',
      arguments: {
        patch: '*** Begin Patch\n*** Update File: twice.txt\n@@\n-other\n+OTHER\n*** End Patch',
        format: null,
        preview: null,
      },
    });
    expect(applied.isError).toBe(false);
    await project.write(
      '.patchsmith.json',
      JSON.stringify({ permissions: [{ match: '*.txt', action: 'deny' }] }),
    );
    const plain = await client.callTool({ name: 'undo', arguments: { id: null, force: null } });
    expect(plain.isError).toBe(true);
    expect(textOf(plain)).toContain('DENIED');
    await project.write('twice.txt', 'edited by the user\n');
    const forced = await client.callTool({ name: 'undo', arguments: { id: null, force: true } });
    expect(forced.isError).toBe(true);
    expect(textOf(forced)).toContain('Permission denied: twice.txt');
    expect(await project.read('twice.txt')).toBe('edited by the user\n');
  });

  it('applies str_replace edits through the edit tool', async () => {
    client = await connect(project.root);
    const result = await client.callTool({
      name: 'edit',
      arguments: {
        edits: [
          {
            command: 'str_replace',
            path: 'src/app.ts',
            old_str: '"hi"',
            new_str: '"hey"',
            replace_all: null,
          },
        ],
        preview: null,
      },
    });
    expect(result.isError).toBe(false);
    expect(await project.read('src/app.ts')).toContain('return "hey";');
  });
});

/** A real client connected to `server` in this process, over the SDK's linked in-memory pair. */
async function connectInProcess(server: ReturnType<typeof createMcpServer>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

describe('createMcpServer in process', () => {
  it('passes the diagnostics hook on and shows what it found', async () => {
    const project = await tempProject({ 'a.ts': 'export const a = 1;\n' });
    const seen: string[] = [];
    const server = createMcpServer({
      root: project.root,
      snapshot: false,
      diagnose: async (edits) => {
        seen.push(...edits.map((e) => e.after));
        return [
          {
            path: 'a.ts',
            status: 'ok',
            omitted: 0,
            diagnostics: [
              {
                range: { start: { line: 0, character: 13 }, end: { line: 0, character: 14 } },
                message: "Type 'string' is not assignable to type 'number'.",
              },
            ],
          },
        ];
      },
    });
    const client = await connectInProcess(server);
    try {
      const result = await client.callTool({
        name: 'apply_patch',
        arguments: {
          format: null,
          preview: null,
          patch:
            '*** Begin Patch\n*** Update File: a.ts\n@@\n-export const a = 1;\n+export const a: number = "1";\n*** End Patch',
        },
      });
      expect(seen).toEqual(['export const a: number = "1";\n']);
      expect(result.isError).toBe(false);
      expect(textOf(result)).toContain(
        `<diagnostics file="a.ts">\nERROR [1:14] Type 'string' is not assignable to type 'number'.\n</diagnostics>`,
      );
    } finally {
      await client.close();
      await project.remove();
    }
  });

  it('reads and writes through the fs it was given: view and edit see the virtual tree, the disk stays empty', async () => {
    const project = await tempProject({});
    const vol = Volume.fromJSON({ 'notes.txt': 'alpha\nbeta\n' }, project.root);
    const server = createMcpServer({
      root: project.root,
      snapshot: false,
      fs: vol.promises as unknown as PatchsmithFs,
    });
    const client = await connectInProcess(server);
    try {
      const viewed = await client.callTool({
        name: 'view',
        arguments: { path: 'notes.txt', view_range: null },
      });
      expect(viewed.isError).toBe(false);
      expect(textOf(viewed)).toContain('beta');
      const edited = await client.callTool({
        name: 'edit',
        arguments: {
          edits: [
            {
              command: 'str_replace',
              path: 'notes.txt',
              old_str: 'beta',
              new_str: 'gamma',
              replace_all: null,
            },
          ],
          preview: null,
        },
      });
      expect(edited.isError).toBe(false);
      expect(vol.readFileSync(`${project.root}/notes.txt`, 'utf8')).toBe('alpha\ngamma\n');
      expect(
        textOf(await client.callTool({ name: 'view', arguments: { path: 'notes.txt', view_range: null } })),
      ).toContain('gamma');
      expect(await readdir(project.root)).toEqual([]);
    } finally {
      await client.close();
      await project.remove();
    }
  });
});

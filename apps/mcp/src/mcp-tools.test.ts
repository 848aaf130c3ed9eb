/**
 * Every tool of the MCP server driven by the real SDK client over stdio: success, ambiguous,
 * denied, bad config, preview, cancel, progress, client roots, and the schemas a client sees.
 */
import { mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { strictModeProblems } from '@patchsmith/tool';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempProject } from '../../../tooling/test-support/fixtures.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
type Project = Awaited<ReturnType<typeof tempProject>>;

interface ConnectOptions {
  /** Arguments after the entry (default: `--cwd root`). */
  args?: string[];
  cwd?: string;
  /** The client offers these folders as its roots. */
  roots?: string[];
  /** The client answers elicitation with this handler. */
  elicit?: (message: string) => Promise<{ answer: string }>;
}

/** A real client talking to `mcp-main.ts` (run from source) in a child process. */
async function connect(root: string, options: ConnectOptions = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      '--import',
      here('../../../tooling/test-support/register-ts.mjs'),
      here('./mcp-main.ts'),
      ...(options.args ?? ['--cwd', root]),
    ],
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stderr: 'pipe',
  });
  const capabilities = {
    ...(options.elicit ? { elicitation: {} } : {}),
    ...(options.roots ? { roots: { listChanged: true } } : {}),
  };
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities });
  const { elicit, roots } = options;
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => ({
      action: 'accept',
      content: await elicit(request.params.message),
    }));
  }
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: roots.map((folder) => ({ uri: pathToFileURL(folder).href, name: 'project' })),
    }));
  }
  await client.connect(transport);
  return client;
}

const textOf = (result: unknown) =>
  (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

const patchCall = (patch: string, preview: boolean | null = null) => ({
  name: 'apply_patch',
  arguments: { patch, format: null, preview },
});
const GREET =
  '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-  return "hi";\n+  return "hello";\n*** End Patch';
const ORIGINAL_APP = 'export function greet() {\n  return "hi";\n}\n';

/** Every entry of the project with its content, `.git` left out: to show that nothing changed. */
async function tree(root: string): Promise<Record<string, string>> {
  const { readFile, lstat } = await import('node:fs/promises');
  const out: Record<string, string> = {};
  for (const name of (await readdir(root, { recursive: true })).sort()) {
    if (name === '.git' || name.startsWith('.git/')) continue;
    const stats = await lstat(join(root, name));
    out[name] = stats.isFile()
      ? await readFile(join(root, name), 'utf8')
      : stats.isDirectory()
        ? 'dir'
        : 'link';
  }
  return out;
}

describe('one server, every tool', () => {
  let project: Project;
  let client: Client;
  beforeAll(async () => {
    project = await tempProject({
      'src/app.ts': ORIGINAL_APP,
      'twice.txt': 'same\nother\nsame\nmore\nsame\n',
      'long.txt': Array.from({ length: 20_000 }, (_, i) => `line ${i + 1}`).join('\n'),
      'secrets/key.txt': 'key\n',
      '.patchsmith.json': JSON.stringify({ permissions: [{ match: 'secrets/**', action: 'deny' }] }),
    });
    await symlink('../secrets', join(project.root, 'src/s'));
    client = await connect(project.root);
  });
  afterAll(async () => {
    await client.close();
    await project.remove();
  });

  it('lists five tools with annotations, output schemas, and input schemas valid in OpenAI strict mode', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['apply_patch', 'edit', 'log', 'undo', 'view']);
    for (const tool of tools) {
      expect(strictModeProblems(tool.inputSchema), tool.name).toEqual([]);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(byName.view).toMatchObject({ readOnlyHint: true });
    expect(byName.log).toMatchObject({ readOnlyHint: true });
    for (const name of ['apply_patch', 'edit', 'undo']) {
      expect(byName[name]).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
      });
    }
  });

  it('views a file with numbered lines, a range, a folder, and cuts a long file with a note', async () => {
    const file = await client.callTool({ name: 'view', arguments: { path: 'src/app.ts', view_range: null } });
    expect(file.isError).toBe(false);
    expect(textOf(file)).toBe(
      'Here\'s the result of running `cat -n` on src/app.ts:\n     1\texport function greet() {\n     2\t  return "hi";\n     3\t}\n',
    );
    expect(file.structuredContent).toMatchObject({
      ok: true,
      kind: 'file',
      path: 'src/app.ts',
      truncated: false,
    });

    const range = await client.callTool({
      name: 'view',
      arguments: { path: 'twice.txt', view_range: [2, 3] },
    });
    expect(textOf(range)).toContain('     2\tother\n     3\tsame\n');
    expect(textOf(range)).not.toContain('     1\t');

    const folder = await client.callTool({ name: 'view', arguments: { path: '.', view_range: null } });
    expect(folder.structuredContent).toMatchObject({ kind: 'directory' });
    expect(textOf(folder)).toContain('src/app.ts');
    expect(textOf(folder)).not.toContain('.patchsmith.json');

    const long = await client.callTool({ name: 'view', arguments: { path: 'long.txt', view_range: null } });
    expect(long.structuredContent).toMatchObject({ truncated: true });
    expect(textOf(long).length).toBeLessThan(40_200);
    expect(textOf(long)).toMatch(
      /\[truncated at 40000 characters: showing lines 1-\d+ of 20000; use view_range \[\d+, -1\] to see more\]\n$/,
    );

    const missing = await client.callTool({
      name: 'view',
      arguments: { path: 'nope.txt', view_range: null },
    });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^FILE_NOT_FOUND: /);
    const outside = await client.callTool({ name: 'view', arguments: { path: '../x', view_range: null } });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/^PATH_OUTSIDE_ROOT: /);
  });

  it('previews a patch: the diff comes back, nothing is written, no snapshot is taken', async () => {
    const before = await tree(project.root);
    const previewed = await client.callTool(patchCall(GREET, true));
    expect(previewed.isError).toBe(false);
    expect(textOf(previewed)).toContain('The patch applies cleanly (nothing was written).');
    expect(textOf(previewed)).toContain('-  return "hi";\n+  return "hello";\n');
    expect(previewed.structuredContent).toMatchObject({ ok: true, dryRun: true, snapshot: null });
    const edited = await client.callTool({
      name: 'edit',
      arguments: {
        edits: [{ command: 'create', path: 'new.txt', file_text: 'new\n' }],
        preview: true,
      },
    });
    expect(textOf(edited)).toContain('+new\n');
    expect(await tree(project.root)).toEqual(before);
    // A preview reports the refusal the apply would meet.
    const denied = await client.callTool(
      patchCall('*** Begin Patch\n*** Add File: secrets/x\n+x\n*** End Patch', true),
    );
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('DENIED');
    expect(await tree(project.root)).toEqual(before);
  });

  it('applies, reports the JSON report as structured content, logs and undoes', async () => {
    const applied = await client.callTool(patchCall(GREET));
    expect(applied.isError).toBe(false);
    expect(textOf(applied)).toBe('Patch applied.\n[M] src/app.ts (+1 -1)\n');
    const report = applied.structuredContent as { ok: boolean; snapshot: string; files: { path: string }[] };
    expect(report).toMatchObject({
      ok: true,
      dryRun: false,
      errors: [],
      files: [{ path: 'src/app.ts', op: 'update' }],
    });
    expect(report.snapshot).toMatch(/\S/);

    const log = await client.callTool({ name: 'log', arguments: { limit: null } });
    expect(log.isError).toBe(false);
    expect(log.structuredContent).toMatchObject({
      snapshots: [{ id: report.snapshot, paths: ['src/app.ts'], undone: false, invalid: null }],
    });
    expect(textOf(log)).toContain(`${report.snapshot}  `);

    const undone = await client.callTool({ name: 'undo', arguments: { id: report.snapshot, force: null } });
    expect(undone.isError).toBe(false);
    expect(undone.structuredContent).toMatchObject({ ok: true, undone: report.snapshot });
    expect(await project.read('src/app.ts')).toBe(ORIGINAL_APP);
    const after = await client.callTool({ name: 'log', arguments: { limit: 1 } });
    expect(after.structuredContent).toMatchObject({ snapshots: [{ id: report.snapshot, undone: true }] });
  });

  it('edits with str_replace commands, nulls for the fields left out', async () => {
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
    await client.callTool({ name: 'undo', arguments: { id: null, force: null } });
  });

  it('an ambiguous edit is a tool error naming each candidate line once; nothing is written', async () => {
    const before = await tree(project.root);
    const result = await client.callTool({
      name: 'edit',
      arguments: {
        edits: [
          { command: 'str_replace', path: 'twice.txt', old_str: 'same', new_str: 'x', replace_all: null },
        ],
        preview: null,
      },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('AMBIGUOUS');
    expect(result.structuredContent).toMatchObject({ ok: false, errors: [{ code: 'AMBIGUOUS' }] });
    expect(await tree(project.root)).toEqual(before);
  });

  it('denies a write through a symlinked folder into a denied one, naming the real path', async () => {
    const before = await tree(project.root);
    const result = await client.callTool(
      patchCall('*** Begin Patch\n*** Update File: src/s/key.txt\n@@\n-key\n+stolen\n*** End Patch'),
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('src/s/key.txt (real path secrets/key.txt)');
    expect(await tree(project.root)).toEqual(before);
  });

  it('a bad call is a tool error, and the server goes on', async () => {
    const missingField = await client.callTool({ name: 'apply_patch', arguments: { patch: GREET } });
    expect(missingField.isError).toBe(true);
    expect(textOf(missingField)).toContain('Input validation error');
    const unknownField = await client.callTool({
      name: 'view',
      arguments: { path: 'a', view_range: null, x: 1 },
    });
    expect(unknownField.isError).toBe(true);
    const unknownTool = await client.callTool({ name: 'rm_rf', arguments: {} });
    expect(unknownTool.isError).toBe(true);
    expect((await client.listTools()).tools).toHaveLength(5);
  });
});

describe('cancellation and progress', () => {
  let project: Project;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await project.remove();
  });

  it('notifications/cancelled while the user is asked: nothing written, no snapshot, the server serves on', async () => {
    project = await tempProject({
      'notes.txt': 'one\n',
      '.patchsmith.json': JSON.stringify({ permissions: [{ match: '*.txt', action: 'ask' }] }),
    });
    const controller = new AbortController();
    client = await connect(project.root, {
      elicit: async () => {
        // The person takes long; the host gives up on the call meanwhile, then the answer comes.
        controller.abort();
        return { answer: 'yes' };
      },
    });
    const before = await tree(project.root);
    const call = client.callTool(
      patchCall('*** Begin Patch\n*** Update File: notes.txt\n@@\n-one\n+two\n*** End Patch'),
      undefined,
      { signal: controller.signal },
    );
    await expect(call).rejects.toThrow(/abort/i);
    // The next call is queued behind the cancelled one: when it answers, the cancelled one is done.
    const log = await client.callTool({ name: 'log', arguments: { limit: null } });
    expect(log.structuredContent).toEqual({ snapshots: [] });
    expect(await tree(project.root)).toEqual(before);
  });

  it('sends progress notifications through the stages of an apply', async () => {
    project = await tempProject({ 'a.txt': 'one\n' });
    client = await connect(project.root);
    const seen: Progress[] = [];
    const result = await client.callTool(
      patchCall('*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch'),
      undefined,
      { onprogress: (progress) => seen.push(progress) },
    );
    expect(result.isError).toBe(false);
    expect(seen.map((p) => [p.progress, p.total, p.message])).toEqual([
      [1, 4, 'planning'],
      [2, 4, 'asking: 1 file(s)'],
      [3, 4, 'writing: 1 file(s)'],
    ]);
  });
});

describe('MCP roots', () => {
  let project: Project;
  let elsewhere: string;
  let client: Client | undefined;
  beforeAll(async () => {
    elsewhere = await mkdtemp(join(tmpdir(), 'patchsmith-elsewhere-'));
  });
  afterAll(async () => {
    await rm(elsewhere, { recursive: true, force: true });
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await project.remove();
  });
  const add = patchCall('*** Begin Patch\n*** Add File: added.txt\n+x\n*** End Patch');

  it('refuses every call when the server root is outside the client roots; allows it inside them', async () => {
    project = await tempProject({ 'a.txt': 'one\n' });
    client = await connect(project.root, { roots: [elsewhere] });
    const refused = await client.callTool(add);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('PATH_OUTSIDE_ROOT');
    expect(textOf(refused)).toContain("outside the client's roots");
    const viewed = await client.callTool({ name: 'view', arguments: { path: 'a.txt', view_range: null } });
    expect(viewed.isError).toBe(true);
    expect(await tree(project.root)).toEqual({ 'a.txt': 'one\n' });
    expect(await readdir(elsewhere)).toEqual([]);
    await client.close();

    client = await connect(project.root, { roots: [elsewhere, join(project.root, '..')] });
    expect((await client.callTool(add)).isError).toBe(false);
    expect(await project.read('added.txt')).toBe('x\n');
  });

  it('without --cwd, edits the client first root, not the folder it was started in', async () => {
    project = await tempProject({ 'a.txt': 'one\n' });
    client = await connect(project.root, { args: ['--no-snapshot'], cwd: elsewhere, roots: [project.root] });
    expect((await client.callTool(add)).isError).toBe(false);
    expect(await project.read('added.txt')).toBe('x\n');
    expect(await readdir(elsewhere)).toEqual([]);
  });
});

/** The formatter in the loop (`formatCode`), through `runEdit`, with real prettier, biome and commands on real files. */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlanned } from './apply-planned.js';
import { planEdit, runEdit } from './run-edit.js';

const require = createRequire(import.meta.url);
const prettierDir = dirname(require.resolve('prettier/package.json'));
const biomeDir = dirname(require.resolve('@biomejs/biome/package.json'));

let base: string;
/** Where test formatters log their runs: outside every root, so the tree stays as the test left it. */
let log: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'patchsmith-format-'));
  log = join(base, 'runs.log');
  process.env.PATCHSMITH_TEST_FORMAT_LOG = log;
});
afterEach(async () => {
  delete process.env.PATCHSMITH_TEST_FORMAT_LOG;
  await rm(base, { recursive: true, force: true });
});

/** A formatter script: logs its argv, then writes stdin back with every line trimmed of trailing spaces and `;` added. */
const TRIM_SCRIPT = `
import { appendFileSync } from 'node:fs';
appendFileSync(process.env.PATCHSMITH_TEST_FORMAT_LOG, JSON.stringify(process.argv.slice(2)) + '\\n');
let text = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => (text += d));
process.stdin.on('end', () => process.stdout.write(text.replace(/ +$/gm, '').replace(/(\\w)$/gm, '$1;')));
`;

/** A git repository root holding `files` (committed). */
async function tree(files: Record<string, string>): Promise<string> {
  const root = join(base, 'root');
  await mkdir(root, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'base'], { cwd: root });
  return root;
}

/** Installs a real package into the root's node_modules (a link to the one this repository has). */
async function install(root: string, name: string, from: string): Promise<void> {
  await mkdir(dirname(join(root, 'node_modules', name)), { recursive: true });
  await symlink(from, join(root, 'node_modules', name));
}

const update = (path: string, from: string, to: string) => ({
  kind: 'patch' as const,
  text: ['*** Begin Patch', `*** Update File: ${path}`, '@@', `-${from}`, `+${to}`, '*** End Patch'].join(
    '\n',
  ),
});

const runs = async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);

describe('runEdit with formatCode', () => {
  it('runs nothing from the repository unless the host opts in', async () => {
    const root = await tree({
      'a.js': 'const a = 1;\n',
      '.prettierrc': '{"semi": false}\n',
      'fmt.mjs': TRIM_SCRIPT,
      '.patchsmith.json': JSON.stringify({ format: { '*.txt': [process.execPath, 'fmt.mjs'] } }),
      'b.txt': 'one\n',
    });
    await install(root, 'prettier', prettierDir);
    const report = await runEdit(
      { kind: 'patch', text: `${update('a.js', 'const a = 1;', 'const  a  =  2;').text}` },
      { root, snapshot: false },
    );
    expect(report.ok).toBe(true);
    expect(await readFile(join(root, 'a.js'), 'utf8')).toBe('const  a  =  2;\n');
    await runEdit(update('b.txt', 'one', 'two   '), { root, snapshot: false });
    expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe('two   \n');
    expect(await runs()).toEqual([]);
  });

  it("a hostile repository's own prettier is code: loaded only with the opt-in", async () => {
    const root = await tree({ 'a.js': 'x\n', '.prettierrc': '{}\n' });
    // A "prettier" that logs when it is loaded, then uppercases what it formats.
    await mkdir(join(root, 'node_modules', 'prettier'), { recursive: true });
    await writeFile(
      join(root, 'node_modules', 'prettier', 'package.json'),
      '{"name": "prettier", "main": "index.cjs"}',
    );
    await writeFile(
      join(root, 'node_modules', 'prettier', 'index.cjs'),
      `require('node:fs').appendFileSync(process.env.PATCHSMITH_TEST_FORMAT_LOG, '"loaded"\\n');
module.exports = {
  resolveConfigFile: async () => null,
  resolveConfig: async () => ({}),
  getFileInfo: async () => ({ ignored: false, inferredParser: 'babel' }),
  format: async (text) => text.toUpperCase(),
};`,
    );
    await runEdit(update('a.js', 'x', 'y'), { root, snapshot: false });
    await runEdit(update('a.js', 'y', 'z'), { root, snapshot: false, dryRun: true });
    await planEdit(update('a.js', 'y', 'z'), { root });
    expect(await runs()).toEqual([]);
    expect(await readFile(join(root, 'a.js'), 'utf8')).toBe('y\n');
    const report = await runEdit(update('a.js', 'y', 'z'), { root, snapshot: false, formatCode: true });
    expect(report.ok).toBe(true);
    expect(await runs()).toEqual(['"loaded"']);
    expect(await readFile(join(root, 'a.js'), 'utf8')).toBe('Z\n');
  });

  it("formats with the project's prettier in process, and the diff reported is what is on disk", async () => {
    const root = await tree({
      'src/a.ts': 'const a = 1\nconst b = 2\n',
      '.prettierrc': '{"semi": false}\n',
      '.gitignore': 'node_modules\n',
    });
    await install(root, 'prettier', prettierDir);
    const report = await runEdit(update('src/a.ts', 'const b = 2', 'const   b = {x:1};'), {
      root,
      formatCode: true,
    });
    expect(report.ok).toBe(true);
    const after = await readFile(join(root, 'src/a.ts'), 'utf8');
    expect(after).toBe('const a = 1\nconst b = { x: 1 }\n');
    expect(report.files).toMatchObject([{ path: 'src/a.ts', formatted: { by: 'prettier', ok: true } }]);
    // The reported diff, reversed, takes the disk back to the commit: it is the diff of what was written.
    await writeFile(
      join(base, 'r.diff'),
      report.files[0]!.diff.replace(/^--- src/m, '--- a/src').replace(/^\+\+\+ src/m, '+++ b/src'),
    );
    execFileSync('git', ['apply', '-R', join(base, 'r.diff')], { cwd: root });
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' })).toBe('');
  });

  it('a dry run shows the formatted diff and writes nothing', async () => {
    const root = await tree({ 'a.ts': 'let a = 1;\n', '.prettierrc': '{}\n' });
    await install(root, 'prettier', prettierDir);
    const planned = await planEdit(update('a.ts', 'let a = 1;', "let a = {b:'c'};"), {
      root,
      formatCode: true,
    });
    expect(planned.ok && planned.plan.files[0]!.diff).toContain('+let a = { b: "c" };');
    const checked = await runEdit(update('a.ts', 'let a = 1;', "let a = {b:'c'};"), {
      root,
      formatCode: true,
      dryRun: true,
    });
    expect(checked.files[0]!.diff).toContain('+let a = { b: "c" };');
    expect(await readFile(join(root, 'a.ts'), 'utf8')).toBe('let a = 1;\n');
  });

  it('a plan made with the formatter applies formatted, as its review showed, without the host asking again', async () => {
    const root = await tree({ 'a.ts': 'let a = 1;\n', '.prettierrc': '{}\n' });
    await install(root, 'prettier', prettierDir);
    const planned = await planEdit(update('a.ts', 'let a = 1;', "let a = {b:'c'};"), { root, formatCode: true });
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors));
    expect(planned.edit.planning.formatCode).toBe(true);
    // Through JSON, as a host keeps it; the apply options say nothing of formatting.
    const report = await applyPlanned(JSON.parse(JSON.stringify(planned.edit)), { snapshot: false });
    expect(report).toMatchObject({ ok: true, files: [{ formatted: { by: 'prettier', ok: true } }] });
    expect(await readFile(join(root, 'a.ts'), 'utf8')).toBe('let a = { b: "c" };\n');
    expect(report.files[0]!.diff).toBe(planned.edit.files[0]!.diff);
  });

  it('a plan made without the formatter applies unformatted, and an older plan without the field is one', async () => {
    const root = await tree({ 'a.ts': 'let a = 1;\n', '.prettierrc': '{}\n' });
    await install(root, 'prettier', prettierDir);
    const planned = await planEdit(update('a.ts', 'let a = 1;', "let a = {b:'c'};"), { root });
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors));
    const { formatCode: _, ...older } = planned.edit.planning;
    const report = await applyPlanned({ ...planned.edit, planning: older }, {
      snapshot: false,
      // A host passing it anyway (plain JS) does not change what the plan writes.
      ...({ formatCode: true } as object),
    });
    expect(report.ok).toBe(true);
    expect(await readFile(join(root, 'a.ts'), 'utf8')).toBe("let a = {b:'c'};\n");
  });

  it('a prettier that fails (a syntax error) leaves the edit as made, with a note, and is no failure', async () => {
    const root = await tree({ 'a.ts': 'let a = 1;\n', '.prettierrc': '{}\n' });
    await install(root, 'prettier', prettierDir);
    const report = await runEdit(update('a.ts', 'let a = 1;', 'let a = (;'), { root, formatCode: true });
    expect(report.ok).toBe(true);
    expect(await readFile(join(root, 'a.ts'), 'utf8')).toBe('let a = (;\n');
    const formatted = report.files[0]!.formatted!;
    expect(formatted).toMatchObject({ by: 'prettier', ok: false });
    expect(formatted.note).toMatch(/^prettier failed: .+; written as the edit made it$/);
  });

  it('a config above the root is not used, a .prettierignore is', async () => {
    const root = await tree({
      'a.ts': 'let a = 1\n',
      'b.ts': 'let b = 1\n',
      '.prettierignore': 'b.ts\n',
      '.prettierrc': '{}\n',
    });
    await writeFile(join(base, '.prettierrc'), '{"semi": false}\n');
    await install(root, 'prettier', prettierDir);
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.ts',
      '-let a = 1',
      '+let a =  2',
      '*** Update File: b.ts',
      '-let b = 1',
      '+let b =  2',
      '*** End Patch',
    ].join('\n');
    const report = await runEdit({ kind: 'patch', text: patch }, { root, formatCode: true, snapshot: false });
    expect(report.ok).toBe(true);
    expect(await readFile(join(root, 'a.ts'), 'utf8')).toBe('let a = 2;\n');
    expect(await readFile(join(root, 'b.ts'), 'utf8')).toBe('let b =  2\n');
  });

  it('runs a `format` command on stdin, in the root, with the path as one argument (never an option)', async () => {
    const root = await tree({
      'fmt.mjs': TRIM_SCRIPT,
      '.patchsmith.json': JSON.stringify({
        format: { '*.txt': [process.execPath, 'fmt.mjs', '--stdin-filename', '{path}', '{path}'] },
      }),
      '-n.txt': 'one\n',
      'x y.txt': 'one\n',
    });
    const patch = [
      '*** Begin Patch',
      '*** Update File: -n.txt',
      '-one',
      '+two   ',
      '*** Update File: x y.txt',
      '-one',
      '+three',
      '*** End Patch',
    ].join('\n');
    const report = await runEdit({ kind: 'patch', text: patch }, { root, formatCode: true, snapshot: false });
    expect(report.ok).toBe(true);
    expect(await readFile(join(root, '-n.txt'), 'utf8')).toBe('two;\n');
    expect(await readFile(join(root, 'x y.txt'), 'utf8')).toBe('three;\n');
    expect((await runs()).map((r) => JSON.parse(r))).toEqual([
      ['--stdin-filename', './-n.txt', './-n.txt'],
      ['--stdin-filename', 'x y.txt', 'x y.txt'],
    ]);
    expect(report.files.map((f) => f.diff)).toEqual([
      expect.stringContaining('+two;'),
      expect.stringContaining('+three;'),
    ]);
  });

  it.each([
    [
      'exits non-zero',
      ['-e', 'process.stderr.write("bad input\\n"); process.exit(3)'],
      /exited with 3: bad input/,
    ],
    ['hangs', ['-e', 'setInterval(() => {}, 1000)'], /did not finish within 1000 ms/],
    ['writes a NUL byte', ['-e', 'process.stdout.write("a\\0b")'], /output is not UTF-8 text/],
    ['writes nothing', ['-e', 'process.stdin.resume()'], /output is empty/],
    [
      'undoes the edit',
      ['-e', 'process.stdin.resume(); process.stdout.write("one\\n")'],
      /would undo the edit/,
    ],
  ])('a formatter that %s leaves the edit as made, with a note', async (_, args, note) => {
    const root = await tree({
      '.patchsmith.json': JSON.stringify({ format: { '*.txt': [process.execPath, ...args] } }),
      'a.txt': 'one\n',
    });
    const report = await runEdit(update('a.txt', 'one', 'two'), {
      root,
      formatCode: true,
      // Short only for the one that hangs: a loaded machine may take a while to start node.
      formatTimeoutMs: note.source.includes('finish') ? 1000 : 30_000,
    });
    expect(report.ok).toBe(true);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('two\n');
    expect(report.files[0]!.formatted).toMatchObject({ ok: false, note: expect.stringMatching(note) });
  });

  it('a command that is not there is a note, and a `false` entry turns detection off', async () => {
    const root = await tree({
      '.patchsmith.json': JSON.stringify({
        format: { '*.txt': ['patchsmith-no-such-formatter'], '*.ts': false },
      }),
      '.prettierrc': '{}\n',
      'a.txt': 'one\n',
      'a.ts': 'let a = 1\n',
    });
    await install(root, 'prettier', prettierDir);
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.txt',
      '-one',
      '+two',
      '*** Update File: a.ts',
      '-let a = 1',
      '+let a =  2',
      '*** End Patch',
    ];
    const report = await runEdit({ kind: 'patch', text: patch.join('\n') }, { root, formatCode: true });
    expect(report.ok).toBe(true);
    expect(report.files[0]!.formatted).toMatchObject({
      ok: false,
      note: expect.stringContaining('not found'),
    });
    expect(report.files[1]!.formatted).toBeUndefined();
    expect(await readFile(join(root, 'a.ts'), 'utf8')).toBe('let a =  2\n');
  });

  it("runs the project's biome on stdin when it has a biome.json", async () => {
    const root = await tree({ 'biome.json': '{}\n', 'a.ts': 'const a = 1;\n', 'notes.md': '# x\n' });
    await install(root, '@biomejs/biome', biomeDir);
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.ts',
      '-const a = 1;',
      "+const a = {b:'c'}",
      '*** Update File: notes.md',
      '-# x',
      '+#  y',
      '*** End Patch',
    ];
    const report = await runEdit(
      { kind: 'patch', text: patch.join('\n') },
      { root, formatCode: true, snapshot: false },
    );
    expect(report.ok).toBe(true);
    expect(await readFile(join(root, 'a.ts'), 'utf8')).toBe('const a = { b: "c" };\n');
    expect(report.files[0]!.formatted).toEqual({ by: 'biome', ok: true });
    // biome does not format markdown: left as written, and not said to be formatted.
    expect(await readFile(join(root, 'notes.md'), 'utf8')).toBe('#  y\n');
    expect(report.files[1]!.formatted).toBeUndefined();
  });

  it('the elided-code guard sees the edit, not the formatter; no formatter sees a refused edit or a denied file', async () => {
    const root = await tree({
      'fmt.mjs': TRIM_SCRIPT,
      '.patchsmith.json': JSON.stringify({
        format: { '*.js': [process.execPath, 'fmt.mjs'] },
        permissions: [{ match: 'locked/**', action: 'deny' }],
      }),
      'a.js': 'function f() {\n  one()\n  two()\n}\n',
      'locked/b.js': 'x\n',
    });
    const elided = [
      '*** Begin Patch',
      '*** Update File: a.js',
      ' function f() {',
      '-  one()',
      '-  two()',
      '+  // ... existing code ...',
      ' }',
      '*** End Patch',
    ];
    const refused = await runEdit({ kind: 'patch', text: elided.join('\n') }, { root, formatCode: true });
    expect(refused.errors).toMatchObject([{ code: 'ELIDED_CODE' }]);
    expect(await runs()).toEqual([]);
    const denied = await runEdit(update('locked/b.js', 'x', 'y'), { root, formatCode: true });
    expect(denied.errors).toMatchObject([{ code: 'DENIED' }]);
    expect(await runs()).toEqual([]);
    expect(await readFile(join(root, 'locked/b.js'), 'utf8')).toBe('x\n');
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' })).toBe('');
    expect(await readdir(root)).not.toContain('.patchsmith');
  });
});

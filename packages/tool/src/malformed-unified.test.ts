/**
 * Never a silent success (issue 12): every malformed unified diff of the corpus in
 * tooling/fixtures/malformed-unified/ is refused through `runEdit` on a real temporary tree, with the
 * code and line its table gives, and the tree stays byte-identical. Real `diff -ruN` output and
 * the lenient readings that are safe keep working.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BASE_TREE, MALFORMED_CASES } from '../../../tooling/fixtures/malformed-unified/cases.js';
import { type EditInput, runEdit } from './run-edit.js';
import { hashTree } from './test-support/hash-tree.js';

const CORPUS = fileURLToPath(new URL('../../../tooling/fixtures/malformed-unified/', import.meta.url));
const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((t) => rm(t, { recursive: true, force: true })));
});

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ps-malformed-'));
  temps.push(root);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

const patchText = (text: string, format: 'auto' | 'unified' = 'unified'): EditInput => ({
  kind: 'patch',
  text,
  format,
});

describe('the malformed unified-diff corpus', () => {
  it('has a table entry for every patch file, and at least 30 of them', async () => {
    const files = (await readdir(CORPUS)).filter((n) => n.endsWith('.patch')).map((n) => n.slice(0, -6));
    expect(files.sort()).toStrictEqual(MALFORMED_CASES.map((c) => c.name).sort());
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  it.each(MALFORMED_CASES)('$name: $code at line $line, the tree byte-identical', async (c) => {
    const root = await tree({ ...BASE_TREE, ...c.extra });
    const before = await hashTree(root);
    const text = await readFile(join(CORPUS, `${c.name}.patch`), 'utf8');
    const report = await runEdit(patchText(text), { root });
    expect(report.ok).toBe(false);
    expect(report.files).toStrictEqual([]);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]).toMatchObject({ code: c.code, message: expect.stringMatching(c.message) });
    expect(report.errors[0]?.line).toBe(c.line);
    // Snapshot on (the default): a refused patch leaves not even a state folder.
    expect(await hashTree(root)).toStrictEqual(before);
  });
});

describe('what keeps working', () => {
  it('applies real `diff -ruN` output: updates, and epoch timestamps creating and deleting files', async () => {
    const base = await tree({
      'old/kept.txt': 'one\ntwo\nthree\n\nfive\n',
      'old/gone.txt': 'bye\n',
      'new/kept.txt': 'one\nTWO\nthree\n\nfive\nsix\n',
      'new/born.txt': 'hello\n',
    });
    // `diff` exits 1 when the trees differ.
    const diff = (() => {
      try {
        return execFileSync('diff', ['-ruN', 'old', 'new'], {
          cwd: base,
          encoding: 'utf8',
          env: { ...process.env, TZ: 'Europe/Paris' },
        });
      } catch (error) {
        return (error as { stdout: string }).stdout;
      }
    })();
    expect(diff).toMatch(/\+\+\+ new\/gone\.txt\t1970-01-01 01:00:00\.000000000 \+0100/);
    // Applied inside `old` with its first folder stripped, as `patch -p1` would.
    const root = await tree({ 'kept.txt': 'one\ntwo\nthree\n\nfive\n', 'gone.txt': 'bye\n' });
    const stripped = diff.replace(
      /^(---|\+\+\+) (old|new)\//gm,
      (_, marker: string, side: string) => `${marker} ${side === 'old' ? 'a' : 'b'}/`,
    );
    const report = await runEdit(patchText(stripped, 'auto'), { root, snapshot: false });
    expect(report.errors).toStrictEqual([]);
    expect(report.files.map((f) => [f.op, f.path]).sort()).toStrictEqual([
      ['add', 'born.txt'],
      ['delete', 'gone.txt'],
      ['update', 'kept.txt'],
    ]);
    expect(await readdir(root)).toStrictEqual(['born.txt', 'kept.txt']);
    expect(await readFile(join(root, 'kept.txt'), 'utf8')).toBe('one\nTWO\nthree\n\nfive\nsix\n');
  });

  it('edits the existing file of differing ---/+++ names, and never renames', async () => {
    const hunk = '@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n';
    // Only the `---` side exists (`diff -u f f.new`, then f.new was dropped).
    let root = await tree(BASE_TREE);
    let report = await runEdit(patchText(`--- f\n+++ g\n${hunk}`), { root, snapshot: false });
    expect(report.files.map((f) => [f.op, f.path, f.movePath])).toStrictEqual([['update', 'f', undefined]]);
    expect(await readdir(root)).toStrictEqual(['f']);
    expect(await readFile(join(root, 'f'), 'utf8')).toBe('A\nb\nc\n');
    // Both exist (`diff -u f.orig f`): git's choice, the `+++` one; the backup is left alone.
    root = await tree({ ...BASE_TREE, 'f.orig': 'a\nb\nc\n' });
    report = await runEdit(patchText(`--- f.orig\n+++ f\n${hunk}`), { root, snapshot: false });
    expect(report.files.map((f) => f.path)).toStrictEqual(['f']);
    expect(report.files[0]?.op).toBe('update');
    expect(await readFile(join(root, 'f.orig'), 'utf8')).toBe('a\nb\nc\n');
  });

  it('reads an empty line as empty context and skips empty lines between hunks', async () => {
    const root = await tree({ f: 'a\n\nb\nc\nd\ne\nf\ng\n' });
    const diff = '--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n-a\n+A\n\n b\n\n@@ -7,2 +7,2 @@\n f\n-g\n+G\n';
    const report = await runEdit(patchText(diff), { root, snapshot: false });
    expect(report.errors).toStrictEqual([]);
    expect(await readFile(join(root, 'f'), 'utf8')).toBe('A\n\nb\nc\nd\ne\nf\nG\n');
  });
});

describe('a patch that changes nothing, in every format', () => {
  it.each([
    ['Codex', '*** Begin Patch\n*** Update File: f\n@@\n-b\n+b\n*** End Patch\n', /changes nothing/],
    [
      'Codex, reapplied',
      '*** Begin Patch\n*** Update File: f\n@@\n-x\n+b\n*** End Patch\n',
      /already applied/,
    ],
    ['SEARCH/REPLACE', 'f\n<<<<<<< SEARCH\nb  \n=======\nb\n>>>>>>> REPLACE\n', /changes nothing/],
    ['SEARCH/REPLACE, reapplied', 'f\n<<<<<<< SEARCH\nx\n=======\nb\n>>>>>>> REPLACE\n', /already applied/],
  ])('%s: EMPTY_PATCH, nothing written', async (_format, text, message) => {
    const root = await tree(BASE_TREE);
    const before = await hashTree(root);
    const report = await runEdit({ kind: 'patch', text }, { root });
    expect(report).toMatchObject({ ok: false, files: [], errors: [{ code: 'EMPTY_PATCH' }] });
    expect(report.errors[0]?.message).toMatch(message);
    expect(await hashTree(root)).toStrictEqual(before);
  });
});

describe('bytes are kept', () => {
  it('refuses a patch text or an edit whose added text holds a lone surrogate, writing nothing', async () => {
    const root = await tree(BASE_TREE);
    const before = await hashTree(root);
    const patch = await runEdit(patchText('--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+\ud800x\n'), { root });
    expect(patch.errors).toMatchObject([
      { code: 'PARSE_ERROR', line: 5, message: expect.stringMatching(/lone UTF-16 surrogate/) },
    ]);
    const codex = await runEdit(
      { kind: 'patch', text: '*** Begin Patch\n*** Add File: g\n+\udc00\n*** End Patch\n' },
      { root },
    );
    expect(codex.errors).toMatchObject([{ code: 'PARSE_ERROR', line: 3 }]);
    const edits = await runEdit(
      { kind: 'edits', edits: [{ command: 'create', path: 'g', file_text: 'ok\n\ud83d' }] },
      { root },
    );
    expect(edits.errors).toMatchObject([
      {
        code: 'INVALID_EDIT',
        message: expect.stringMatching(/"file_text" is not valid Unicode: its line 2/),
      },
    ]);
    expect(await hashTree(root)).toStrictEqual(before);
  });

  it('a str_replace whose new_str equals old_str stays INVALID_EDIT; one already applied is EMPTY_PATCH', async () => {
    const root = await tree(BASE_TREE);
    const same = await runEdit(
      { kind: 'edits', edits: [{ command: 'str_replace', path: 'f', old_str: 'b', new_str: 'b' }] },
      { root },
    );
    expect(same.errors.map((e) => e.code)).toStrictEqual(['INVALID_EDIT']);
    const again = await runEdit(
      { kind: 'edits', edits: [{ command: 'str_replace', path: 'f', old_str: 'x', new_str: 'b\nc' }] },
      { root },
    );
    expect(again.errors).toMatchObject([
      { code: 'EMPTY_PATCH', message: expect.stringMatching(/already applied/) },
    ]);
  });
});

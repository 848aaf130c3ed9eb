/** Partial apply (`partial: true`) through `runEdit`, on real files: the files that locate are written, the rest untouched. */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planEdit, runEdit } from './run-edit.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'patchsmith-partial-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A fresh root holding `files`. */
async function tree(name: string, files: Record<string, string>): Promise<string> {
  const root = join(base, name);
  await mkdir(root, { recursive: true });
  for (const [path, text] of Object.entries(files)) await writeFile(join(root, path), text);
  return root;
}

/** Every file of a root and its text. */
async function contents(root: string): Promise<Record<string, string>> {
  const names = (await readdir(root)).filter((n) => !n.startsWith('.')).sort();
  return Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, await readFile(join(root, n), 'utf8')])),
  );
}

/** A Codex patch section updating `path`: `from` becomes `to`. */
const section = (path: string, from: string, to: string) =>
  [`*** Update File: ${path}`, '@@', `-${from}`, `+${to}`].join('\n');
const patchOf = (...sections: string[]) => ['*** Begin Patch', ...sections, '*** End Patch'].join('\n');

describe('runEdit with partial', () => {
  it('writes the files that locate, reports the others, and says partial (never ok)', async () => {
    const root = await tree('t', { 'a.txt': 'one\n', 'b.txt': 'two\n', 'c.txt': 'three\n' });
    const patch = patchOf(
      section('a.txt', 'one', 'ONE'),
      section('b.txt', 'not there', 'x'),
      section('c.txt', 'three', 'THREE'),
    );
    const report = await runEdit({ kind: 'patch', text: patch }, { root, snapshot: false, partial: true });
    expect(report).toMatchObject({ ok: false, partial: true });
    expect(report.files.map((f) => f.path)).toEqual(['a.txt', 'c.txt']);
    expect(report.errors).toMatchObject([{ code: 'NO_MATCH', path: 'b.txt' }]);
    expect(await contents(root)).toEqual({ 'a.txt': 'ONE\n', 'b.txt': 'two\n', 'c.txt': 'THREE\n' });
  });

  it('without it, the same patch writes nothing (all or nothing stays the default)', async () => {
    const root = await tree('t', { 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const patch = patchOf(section('a.txt', 'one', 'ONE'), section('b.txt', 'not there', 'x'));
    const report = await runEdit({ kind: 'patch', text: patch }, { root, snapshot: false });
    expect(report.ok).toBe(false);
    expect(report.partial).toBeUndefined();
    expect(await contents(root)).toEqual({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
  });

  it('keeps each file whole: one failing chunk of a file leaves all of that file untouched', async () => {
    const root = await tree('t', { 'a.txt': 'one\ntwo\n', 'b.txt': 'x\n' });
    const patch = patchOf(
      ['*** Update File: a.txt', '@@', '-one', '+ONE', '@@', '-missing', '+y'].join('\n'),
      section('b.txt', 'x', 'X'),
    );
    const report = await runEdit({ kind: 'patch', text: patch }, { root, snapshot: false, partial: true });
    expect(report).toMatchObject({ ok: false, partial: true, errors: [{ path: 'a.txt' }] });
    expect(await contents(root)).toEqual({ 'a.txt': 'one\ntwo\n', 'b.txt': 'X\n' });
  });

  it('keeps an update and a later move of the same file together', async () => {
    const root = await tree('t', { 'a.txt': 'one\n', 'b.txt': 'x\n' });
    const patch = patchOf(
      section('a.txt', 'one', 'ONE'),
      ['*** Update File: a.txt', '*** Move to: moved.txt', '@@', '-missing', '+y'].join('\n'),
      section('b.txt', 'x', 'X'),
    );
    const report = await runEdit({ kind: 'patch', text: patch }, { root, snapshot: false, partial: true });
    expect(report.partial).toBe(true);
    expect(await contents(root)).toEqual({ 'a.txt': 'one\n', 'b.txt': 'X\n' });
  });

  it('everything applying is a plain success; nothing applying is a plain rejection', async () => {
    const root = await tree('t', { 'a.txt': 'one\n' });
    const ok = await runEdit(
      { kind: 'patch', text: patchOf(section('a.txt', 'one', 'ONE')) },
      { root, snapshot: false, partial: true },
    );
    expect(ok).toMatchObject({ ok: true, errors: [] });
    expect(ok.partial).toBeUndefined();
    const none = await runEdit(
      { kind: 'patch', text: patchOf(section('a.txt', 'nope', 'x')) },
      { root, snapshot: false, partial: true },
    );
    expect(none.ok).toBe(false);
    expect(none.partial).toBeUndefined();
    expect(await contents(root)).toEqual({ 'a.txt': 'ONE\n' });
  });

  it('a check (dryRun) and planEdit say what a partial apply would do, writing nothing', async () => {
    const root = await tree('t', { 'a.txt': 'one\n', 'b.txt': 'two\n' });
    const patch = patchOf(section('a.txt', 'one', 'ONE'), section('b.txt', 'nope', 'x'));
    const checked = await runEdit({ kind: 'patch', text: patch }, { root, dryRun: true, partial: true });
    expect(checked).toMatchObject({ ok: false, partial: true, dryRun: true });
    const planned = await planEdit({ kind: 'patch', text: patch }, { root, partial: true });
    expect(planned.ok && planned.refused).toMatchObject([{ code: 'NO_MATCH', path: 'b.txt' }]);
    expect(await contents(root)).toEqual({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
  });

  it('an operation on a path outside the root is refused alone; nothing outside is touched', async () => {
    const root = await tree('t', { 'a.txt': 'one\n' });
    await writeFile(join(base, 'outside.txt'), 'secret\n');
    const patch = patchOf(section('../outside.txt', 'secret', 'owned'), section('a.txt', 'one', 'ONE'));
    const report = await runEdit({ kind: 'patch', text: patch }, { root, snapshot: false, partial: true });
    expect(report).toMatchObject({ ok: false, partial: true, errors: [{ code: 'PATH_OUTSIDE_ROOT' }] });
    expect(await readFile(join(base, 'outside.txt'), 'utf8')).toBe('secret\n');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('ONE\n');
  });

  it('a file the rules deny fails the whole transaction of the rest (the policy is never worked around)', async () => {
    const root = await tree('t', {
      'a.txt': 'one\n',
      'b.txt': 'two\n',
      '.patchsmith.json': JSON.stringify({ permissions: [{ match: 'b.txt', action: 'deny' }] }),
    });
    const patch = patchOf(section('a.txt', 'one', 'ONE'), section('b.txt', 'two', 'TWO'));
    const report = await runEdit({ kind: 'patch', text: patch }, { root, snapshot: false, partial: true });
    expect(report.ok).toBe(false);
    expect(report.errors.some((e) => e.code === 'DENIED')).toBe(true);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\n');
    expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe('two\n');
  });
});

describe('partial = the union of per-file all-or-nothing', () => {
  it('property: the tree after a partial apply is the tree after applying each file alone, and so are the errors', async () => {
    const fileCase = fc.record({
      lines: fc.array(fc.constantFrom('a', 'b', 'c', 'x y', '}'), { minLength: 1, maxLength: 6 }),
      // Each chunk edits a line of the file, or (a miss) a line that is not there.
      chunks: fc.array(
        fc.record({ at: fc.nat(), miss: fc.boolean(), text: fc.constantFrom('N', 'M', 'z') }),
        {
          minLength: 1,
          maxLength: 3,
        },
      ),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fileCase, { minLength: 1, maxLength: 4 }), async (cases) => {
        run++;
        const files: Record<string, string> = {};
        const sections = cases.map((c, k) => {
          const path = `f${k}.txt`;
          files[path] = `${c.lines.join('\n')}\n`;
          const body = c.chunks.flatMap((chunk) => {
            const line = chunk.miss ? 'never in a file' : (c.lines[chunk.at % c.lines.length] as string);
            return ['@@', `-${line}`, `+${chunk.text}`];
          });
          return [`*** Update File: ${path}`, ...body].join('\n');
        });
        const together = await tree(`p${run}`, files);
        const report = await runEdit(
          { kind: 'patch', text: patchOf(...sections) },
          { root: together, snapshot: false, partial: true },
        );
        const alone = await tree(`s${run}`, files);
        const errors = [];
        // A chunk's error names its line in the patch sent: alone, a section starts at line 2.
        let offset = 0;
        for (const s of sections) {
          const one = await runEdit({ kind: 'patch', text: patchOf(s) }, { root: alone, snapshot: false });
          errors.push(...one.errors.map((e) => (e.line === undefined ? e : { ...e, line: e.line + offset })));
          offset += s.split('\n').length;
        }
        expect(await contents(together)).toEqual(await contents(alone));
        expect(report.errors).toEqual(errors);
        expect(report.ok).toBe(errors.length === 0);
      }),
      { numRuns: 25 },
    );
  });
});

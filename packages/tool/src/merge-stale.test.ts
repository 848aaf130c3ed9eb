/** Three-way merge of an edit made against the version the model read, through `runEdit`, on real files. */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planEdit, runEdit } from './run-edit.js';
import { viewFile } from './view-file.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-merge-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const read = (path: string) => readFile(join(root, path), 'utf8');
const numbered = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, k) => `line ${from + k}\n`).join('');

/** What the model read: lines 1-20. */
const asRead = numbered(1, 20);

/** The model's edit of line 5, with line 3 (which the file changed since) in its context. */
const patch = [
  '*** Begin Patch',
  '*** Update File: f.txt',
  '@@',
  ' line 2',
  ' line 3',
  ' line 4',
  '-line 5',
  '+line FIVE',
  ' line 6',
  '*** End Patch',
].join('\n');

/** The file now: line 3 rewritten and two lines added at the top by someone else. */
const now = `new a\nnew b\n${numbered(1, 2)}line THREE\n${numbered(4, 20)}`;

describe('runEdit with readVersions', () => {
  it('without them, an edit whose context changed since is a miss (the default stays strict)', async () => {
    await writeFile(join(root, 'f.txt'), now);
    const report = await runEdit({ kind: 'patch', text: patch }, { root, snapshot: false });
    expect(report.ok).toBe(false);
    expect(report.errors[0]?.code).toBe('NO_MATCH');
    expect(await read('f.txt')).toBe(now);
  });

  it('merges the edit into the file as it is now, and says where its change landed', async () => {
    await writeFile(join(root, 'f.txt'), now);
    const report = await runEdit(
      { kind: 'patch', text: patch },
      { root, snapshot: false, readVersions: { 'f.txt': { content: asRead } } },
    );
    expect(report.errors).toEqual([]);
    expect(await read('f.txt')).toBe(
      `new a\nnew b\n${numbered(1, 2)}line THREE\nline 4\nline FIVE\n${numbered(6, 20)}`,
    );
    const [file] = report.files;
    expect(file?.merged).toEqual({ moved: [{ read: 5, now: 7, lines: 1 }] });
    // The diff shown is against the file now: only the edit's own change.
    expect(file).toMatchObject({ additions: 1, deletions: 1 });
    expect(file?.diff).toContain('@@ -4,7 +4,7 @@');
    expect(file?.diff).toContain('-line 5\n+line FIVE\n');
  });

  it('a file that did not change since it was read plans as usual, with no merge', async () => {
    await writeFile(join(root, 'f.txt'), asRead);
    const report = await runEdit(
      { kind: 'patch', text: patch },
      { root, snapshot: false, readVersions: { 'f.txt': { content: asRead } } },
    );
    expect(report.ok).toBe(true);
    expect(report.files[0]?.merged).toBeUndefined();
    expect(await read('f.txt')).toBe(asRead.replace('line 5\n', 'line FIVE\n'));
  });

  it('a conflict is STALE with the three versions of the region, and the file is untouched (no markers)', async () => {
    const theirs = asRead.replace('line 5\n', 'line five (theirs)\n');
    await writeFile(join(root, 'f.txt'), theirs);
    const report = await runEdit(
      { kind: 'patch', text: patch },
      { root, snapshot: false, readVersions: { 'f.txt': { content: asRead } } },
    );
    expect(report.ok).toBe(false);
    expect(report.errors).toHaveLength(1);
    const [error] = report.errors;
    expect(error).toMatchObject({ code: 'STALE', path: 'f.txt', line: 5 });
    expect(error?.message).toContain('lines 5-5 of the version read');
    expect(error?.message).toContain('  as read:\n    line 5\n');
    expect(error?.message).toContain('  the edit made them:\n    line FIVE\n');
    expect(error?.message).toContain('  the file now has:\n    line five (theirs)');
    expect(await read('f.txt')).toBe(theirs);
  });

  it('a hash of what viewFile showed is enough: the tool kept the content of the view', async () => {
    await writeFile(join(root, 'f.txt'), asRead);
    const view = await viewFile({ root, path: 'f.txt', view_range: [1, 8] });
    expect(view.ok && view.hash).toBe(createHash('sha256').update(asRead).digest('hex'));
    await writeFile(join(root, 'f.txt'), now);
    const hash = view.ok ? (view.hash as string) : '';
    const report = await runEdit(
      { kind: 'patch', text: patch },
      { root, snapshot: false, readVersions: { './f.txt': { hash } } },
    );
    expect(report.errors).toEqual([]);
    expect(await read('f.txt')).toContain('line THREE\nline 4\nline FIVE\n');
  });

  it('a hash recalls only a view of that same file, not of another one with that content', async () => {
    await writeFile(join(root, 'other.txt'), asRead);
    const view = await viewFile({ root, path: 'other.txt' });
    await writeFile(join(root, 'f.txt'), now);
    const hash = view.ok ? (view.hash as string) : '';
    const report = await runEdit(
      { kind: 'patch', text: patch },
      { root, snapshot: false, readVersions: { 'f.txt': { hash } } },
    );
    expect(report.errors).toMatchObject([{ code: 'STALE', path: 'f.txt' }]);
    expect(await read('f.txt')).toBe(now);
  });

  it('a changed file known only by a hash the tool never showed is STALE, untouched', async () => {
    await writeFile(join(root, 'f.txt'), now);
    const hash = createHash('sha256').update('something never viewed').digest('hex');
    const report = await runEdit(
      { kind: 'patch', text: patch },
      { root, snapshot: false, readVersions: { 'f.txt': { hash } } },
    );
    expect(report.errors).toMatchObject([{ code: 'STALE', path: 'f.txt' }]);
    expect(report.errors[0]?.message).toContain('pass the content that was read');
    expect(await read('f.txt')).toBe(now);
  });

  it('a delete of a file changed since it was read is STALE, and a file gone since is STALE', async () => {
    await writeFile(join(root, 'f.txt'), now);
    const del = '*** Begin Patch\n*** Delete File: f.txt\n*** End Patch';
    const deleted = await runEdit(
      { kind: 'patch', text: del },
      { root, snapshot: false, readVersions: { 'f.txt': { content: asRead } } },
    );
    expect(deleted.errors).toMatchObject([{ code: 'STALE', path: 'f.txt' }]);
    expect(await read('f.txt')).toBe(now);
    await rm(join(root, 'f.txt'));
    const gone = await runEdit(
      { kind: 'patch', text: patch },
      { root, snapshot: false, readVersions: { 'f.txt': { content: asRead } } },
    );
    expect(gone.errors).toMatchObject([{ code: 'STALE', path: 'f.txt' }]);
  });

  it('an edit someone already made is EMPTY_PATCH, never a success', async () => {
    const theirs = asRead.replace('line 5\n', 'line FIVE\n');
    await writeFile(join(root, 'f.txt'), theirs);
    const report = await runEdit(
      { kind: 'patch', text: patch },
      { root, snapshot: false, readVersions: { 'f.txt': { content: asRead } } },
    );
    expect(report.errors).toMatchObject([{ code: 'EMPTY_PATCH' }]);
    expect(await read('f.txt')).toBe(theirs);
  });

  it('str_replace edits merge too, and planEdit previews the merge without writing', async () => {
    await writeFile(join(root, 'f.txt'), now);
    const edits = [
      {
        command: 'str_replace' as const,
        path: 'f.txt',
        old_str: 'line 3\nline 4\nline 5\n',
        new_str: 'line 3\nline 4\nline 5b\n',
      },
    ];
    const planned = await planEdit(
      { kind: 'edits', edits },
      { root, readVersions: { 'f.txt': { content: asRead } } },
    );
    // Its old_str holds line 3, which the file changed since: merged, previewed, not written.
    expect(planned.ok && planned.plan.files[0]?.merged).toEqual({ moved: [{ read: 5, now: 7, lines: 1 }] });
    expect(await read('f.txt')).toBe(now);
    const apart = [
      { command: 'str_replace' as const, path: 'f.txt', old_str: 'line 9\n', new_str: 'line NINE\n' },
    ];
    const report = await runEdit(
      { kind: 'edits', edits: apart },
      { root, snapshot: false, readVersions: { 'f.txt': { content: asRead } } },
    );
    expect(report.errors).toEqual([]);
    expect(await read('f.txt')).toBe(now.replace('line 9\n', 'line NINE\n'));
  });

  it('a read version naming a path outside the root is refused', async () => {
    await writeFile(join(root, 'f.txt'), now);
    const report = await runEdit(
      { kind: 'patch', text: patch },
      { root, snapshot: false, readVersions: { '../f.txt': { content: asRead } } },
    );
    expect(report.errors).toMatchObject([{ code: 'PATH_OUTSIDE_ROOT' }]);
    expect(await read('f.txt')).toBe(now);
  });
});

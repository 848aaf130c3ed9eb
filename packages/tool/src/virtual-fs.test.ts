/**
 * The `fs` option end to end: a whole edit, its plan, its view and its refusals on a tree held in
 * memory (memfs), at the path of a real, empty temp folder that must stay empty: nothing of the
 * call reaches the disk. Then every mutating call of the transaction failed in turn through the
 * virtual fs: each leaves the tree byte for byte as it was.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FsFileHandle, PatchsmithFs } from '@patchsmith/core';
import { Volume } from 'memfs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlanned } from './apply-planned.js';
import { planEdit, runEdit } from './run-edit.js';
import { redoLast, undoLast } from './undo.js';
import { viewFile } from './view-file.js';

let root: string;
let vol: InstanceType<typeof Volume>;

/** The tree the virtual fs holds, under `root`. */
const START = {
  'src/a.txt': 'one\ntwo\nthree\n',
  'src/gone.txt': 'bye\n',
  'README.md': '# r\n',
};

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-virtual-'));
  vol = Volume.fromJSON(START, root);
});
afterEach(async () => {
  // The proof that the call stayed in memory: the real folder of the same name is still empty.
  expect(await readdir(root)).toEqual([]);
  await rm(root, { recursive: true, force: true });
});

/** memfs as patchsmith's fs (its promises API has every call, with Node's error codes). */
const memory = (): PatchsmithFs => vol.promises as unknown as PatchsmithFs;

/** The virtual tree, relative to the root: every file's text (the state dir's included unless `withoutState`). */
const tree = ({ withoutState = false } = {}) =>
  Object.fromEntries(
    Object.entries(vol.toJSON(root))
      .map(([path, text]) => [path.slice(root.length + 1), text])
      .filter(([path]) => !(withoutState && /^\.patchsmith(\/|$)/.test(String(path))))
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );

const patch = {
  kind: 'patch',
  text: [
    '*** Begin Patch',
    '*** Update File: src/a.txt',
    '@@',
    ' one',
    '-two',
    '+TWO',
    '*** Add File: lib/new/b.txt',
    '+new',
    '*** Delete File: src/gone.txt',
    '*** End Patch',
  ].join('\n'),
} as const;

const AFTER = { 'README.md': '# r\n', 'lib/new/b.txt': 'new\n', 'src/a.txt': 'one\nTWO\nthree\n' };

describe('runEdit on a virtual fs', () => {
  it('applies a whole patch in memory, leaving no state behind there either', async () => {
    const report = await runEdit(patch, { root, fs: memory(), snapshot: false });
    expect(report.errors).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.files.map((f) => [f.op, f.path])).toEqual([
      ['update', 'src/a.txt'],
      ['add', 'lib/new/b.txt'],
      ['delete', 'src/gone.txt'],
    ]);
    expect(tree()).toEqual(AFTER);
    // The lock and the journal lived in the virtual tree's own state folder, now gone.
    expect(vol.existsSync(join(root, '.patchsmith'))).toBe(false);
  });

  it('refuses a snapshot, which needs the real disk, before anything is read or written', async () => {
    const report = await runEdit(patch, { root, fs: memory() });
    expect(report.ok).toBe(false);
    expect(report.errors.map((e) => e.code)).toEqual(['NO_SNAPSHOT']);
    expect(report.errors[0]!.message).toMatch(/snapshot: false/);
    expect((await runEdit(patch, { root, fs: memory(), snapshot: 'in-repository' })).errors[0]?.code).toBe(
      'NO_SNAPSHOT',
    );
    expect(tree()).toEqual(START);
    // A dry run takes no snapshot, so it is answered.
    expect((await runEdit(patch, { root, fs: memory(), dryRun: true })).ok).toBe(true);
    expect(tree()).toEqual(START);
  });

  it('reads the permission rules from the virtual tree', async () => {
    vol.writeFileSync(
      join(root, '.patchsmith.json'),
      JSON.stringify({ permissions: [{ match: 'lib/**', action: 'deny' }] }),
    );
    const before = tree();
    const report = await runEdit(patch, { root, fs: memory(), snapshot: false });
    expect(report.errors.map((e) => e.code)).toEqual(['DENIED']);
    expect(tree()).toEqual(before);
  });

  it('refuses a config larger than a config can be, as on the disk', async () => {
    vol.writeFileSync(join(root, '.patchsmith.json'), ' '.repeat(2 * 1024 * 1024));
    const report = await runEdit(patch, { root, fs: memory(), snapshot: false });
    expect(report.errors.map((e) => e.code)).toEqual(['PARSE_ERROR']);
    expect(report.errors[0]!.message).toMatch(/larger than/);
  });

  it('plans and applies an approved plan in memory; a change in between is STALE', async () => {
    const planned = await planEdit(patch, { root, fs: memory() });
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors));
    expect(tree()).toEqual(START);
    vol.writeFileSync(join(root, 'src/a.txt'), 'one\ntwo\nthree\nfour\n');
    const stale = await applyPlanned(planned.edit, { fs: memory(), snapshot: false });
    expect(stale.errors.map((e) => e.code)).toEqual(['STALE']);
    vol.writeFileSync(join(root, 'src/a.txt'), START['src/a.txt']);
    const applied = await applyPlanned(planned.edit, { fs: memory(), snapshot: false });
    expect(applied.ok).toBe(true);
    expect(tree()).toEqual(AFTER);
  });

  it('views a file and lists a folder of the virtual tree', async () => {
    const file = await viewFile({ root, path: 'src/a.txt', view_range: [2, 3], fs: memory() });
    expect(file).toMatchObject({
      ok: true,
      kind: 'file',
      text: expect.stringContaining('     2\ttwo\n     3\tthree'),
    });
    vol.symlinkSync(join(root, 'src'), join(root, 'linked'));
    const listing = await viewFile({ root, path: '.', fs: memory() });
    expect(listing.ok && listing.text.split('\n').slice(1)).toEqual([
      'README.md',
      'linked',
      'src/',
      'src/a.txt',
      'src/gone.txt',
    ]);
    expect((await viewFile({ root, path: 'nope.txt', fs: memory() })).ok).toBe(false);
  });

  it('refuses undo and redo, whose snapshots live on the disk', async () => {
    for (const report of [await undoLast({ root, fs: memory() }), await redoLast({ root, fs: memory() })]) {
      expect(report.errors.map((e) => e.code)).toEqual(['NO_SNAPSHOT']);
    }
  });
});

/** Node's error for an injected failure. */
const eio = (call: string) => Object.assign(new Error(`EIO: injected, ${call}`), { code: 'EIO' });

/** The virtual fs with its `failAt`-th mutating call failing (EIO); `calls` counts them. */
function failingAt(failAt: number): { fs: PatchsmithFs; calls: () => number } {
  const base = memory();
  let calls = 0;
  const mutate =
    <A extends unknown[], R>(call: string, run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      calls += 1;
      if (calls === failAt) throw eio(call);
      return run(...args);
    };
  const handle = (h: FsFileHandle): FsFileHandle => ({
    writeFile: mutate('write', (data) => h.writeFile(data)),
    chmod: mutate('fchmod', (mode) => h.chmod(mode)),
    sync: mutate('fsync', () => h.sync()),
    close: () => h.close(),
  });
  const fs: PatchsmithFs = {
    ...base,
    open: async (path, flags, mode) =>
      handle(
        /[wax+]/.test(flags)
          ? await mutate('open', () => base.open(path, flags, mode))()
          : await base.open(path, flags, mode),
      ),
    rename: mutate('rename', (from: string, to: string) => base.rename(from, to)),
    unlink: mutate('unlink', (path: string) => base.unlink(path)),
    mkdir: mutate('mkdir', (path: string, options?: { recursive?: boolean }) => base.mkdir(path, options)),
    rmdir: mutate('rmdir', (path: string) => base.rmdir(path)),
    chmod: mutate('chmod', (path: string, mode: number) => base.chmod(path, mode)),
    link: mutate('link', (from: string, to: string) => base.link(from, to)),
    copyFile: mutate('copyFile', (from: string, to: string) => base.copyFile(from, to)),
    symlink: mutate('symlink', (target: string, path: string) => base.symlink(target, path)),
  };
  return { fs, calls: () => calls };
}

describe('faults through a virtual fs', () => {
  it('a failure at any mutating call leaves the tree as it was', async () => {
    let failAt = 1;
    for (; ; failAt++) {
      vol = Volume.fromJSON(START, root);
      const faulty = failingAt(failAt);
      const report = await runEdit(patch, { root, fs: faulty.fs, snapshot: false });
      if (faulty.calls() < failAt) {
        // Every call went through: the last run is the one without a fault.
        expect(report.ok).toBe(true);
        expect(tree()).toEqual(AFTER);
        break;
      }
      // Failed before the commit point: rolled back. The journal's removal is the commit point, and
      // the cleanup after it is best effort: a failure there is a success with the after state.
      const expected = report.ok ? AFTER : START;
      if (!report.ok) {
        expect(report.errors.map((e) => e.code)).toEqual(['IO_ERROR']);
        expect(report.errors[0]!.message).not.toMatch(/rolling back failed/);
      }
      expect(tree({ withoutState: true })).toEqual(expected);
      // What a failed cleanup left in the state folder (a lock, a transaction folder), the next
      // call breaks or drops: after a failure, the same edit then applies.
      if (!report.ok) {
        expect((await runEdit(patch, { root, fs: memory(), snapshot: false })).ok).toBe(true);
        expect(tree()).toEqual(AFTER);
      }
    }
    // The lock, the journal, three files staged or backed up, folders: a transaction's worth of calls.
    expect(failAt).toBeGreaterThan(15);
  });
});

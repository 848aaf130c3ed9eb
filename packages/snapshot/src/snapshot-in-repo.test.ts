import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSnapshot } from './create-snapshot.js';
import { listSnapshots } from './list-snapshots.js';
import { planUndo } from './plan-undo.js';
import {
  applyWrites,
  type DiskFile,
  git,
  initRepo,
  planFor,
  pruneEmptyDirs,
  readTree,
  tempDir,
  text,
  writeFile,
} from './test-support/fixtures.js';

const BINARY = new Uint8Array([0, 1, 2, 255, 254, 0, 10, 13, 0x80]);

/** What git says about the repository, to compare before and after a snapshot. */
function gitView(root: string) {
  return {
    status: git(root, 'status', '--porcelain', '--untracked-files=all'),
    head: git(root, 'rev-parse', 'HEAD'),
    branches: git(root, 'branch', '--list', '--all'),
    cached: git(root, 'diff', '--cached'),
    worktreeDiff: git(root, 'diff'),
    stash: git(root, 'stash', 'list'),
    tags: git(root, 'tag', '--list'),
  };
}

describe('createSnapshot inside a git repository', () => {
  let root: string;
  let afterState: Map<string, DiskFile | null>;

  beforeEach(async () => {
    root = await tempDir();
    await initRepo(root);
    await writeFile(root, 'src/app.ts', 'export const a = 1;\n');
    await writeFile(root, 'src/gone.ts', 'export const gone = true;\n');
    await writeFile(root, 'bin/run.sh', '#!/bin/sh\necho hi\n', 0o755);
    await writeFile(root, 'staged.txt', 'v1\n');
    await writeFile(root, 'assets/logo.bin', BINARY);
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'first');
    await writeFile(root, 'staged.txt', 'v2 staged\n');
    git(root, 'add', 'staged.txt');
    // Dirty working tree: a modification, an untracked file, an empty untracked file.
    await writeFile(root, 'src/app.ts', 'export const a = 2; // dirty\n');
    await writeFile(root, 'notes/untracked.md', '# scratch\n');
    await writeFile(root, 'empty.txt', '');

    afterState = new Map<string, DiskFile | null>([
      ['src/app.ts', { bytes: text('export const a = 3;\n'), mode: 0o644 }], // modified (dirty) file
      ['notes/untracked.md', { bytes: text('# scratch, edited\n'), mode: 0o644 }], // untracked file
      ['src/deep/nested/new.ts', { bytes: text('export {};\n'), mode: 0o644 }], // new file, new folders
      ['src/gone.ts', null], // deleted tracked file
      ['bin/run.sh', { bytes: text('#!/bin/sh\necho bye\n'), mode: 0o755 }], // executable
      ['assets/logo.bin', { bytes: new Uint8Array([9, 0, 9]), mode: 0o600 }], // binary, mode change
      ['empty.txt', { bytes: text('now full\n'), mode: 0o644 }], // empty before
    ]);
  });

  it('writes only objects and a private ref: status, HEAD, branches and the index are unchanged and fsck is clean', async () => {
    const before = gitView(root);
    const tree = await readTree(root);
    const plan = await planFor(root, afterState);

    const snap = await createSnapshot({ root, plan, message: 'edit app and friends' });

    expect(snap.ref).toBe(`refs/patchsmith/snapshots/${snap.id}`);
    expect(snap.id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{4}$/);
    expect(gitView(root)).toEqual(before);
    expect(await readTree(root)).toEqual(tree);
    expect(git(root, 'fsck', '--strict', '--no-progress')).toBe('');
    expect(git(root, 'rev-parse', snap.ref).trim()).toBe(snap.commit);
    // Nothing new in .git/patchsmith either (no private store inside a repository).
    await expect(fs.stat(join(root, '.git', 'patchsmith', 'snapshots.git'))).rejects.toThrow();
    await expect(fs.stat(join(root, '.patchsmith'))).rejects.toThrow();
  });

  it('the ghost commit holds the manifest and the before bytes with git modes', async () => {
    const plan = await planFor(root, afterState);
    const snap = await createSnapshot({ root, plan, message: 'edit app and friends' });

    const commit = git(root, 'cat-file', '-p', snap.ref);
    expect(commit).toMatch(/^tree [0-9a-f]{40}$/m);
    expect(commit).not.toMatch(/^parent /m);
    expect(commit).toContain('edit app and friends');
    expect(commit).toContain(`Patchsmith-Snapshot: ${snap.id}`);

    const listing = git(root, 'ls-tree', '-r', snap.ref);
    expect(listing).toMatch(/^100755 blob [0-9a-f]{40}\tfiles\/bin\/run\.sh$/m);
    expect(listing).toMatch(/^100644 blob [0-9a-f]{40}\tfiles\/src\/app\.ts$/m);
    expect(listing).toMatch(/^100644 blob [0-9a-f]{40}\tfiles\/empty\.txt$/m);
    // Absent before: not in the tree, only in the manifest.
    expect(listing).not.toContain('new.ts');

    expect(git(root, 'show', `${snap.ref}:files/src/app.ts`)).toBe('export const a = 2; // dirty\n');
    expect(git(root, 'show', `${snap.ref}:files/src/gone.ts`)).toBe('export const gone = true;\n');
    const manifest = JSON.parse(git(root, 'show', `${snap.ref}:manifest.json`));
    expect(manifest.id).toBe(snap.id);
    expect(manifest.entries.map((e: { path: string }) => e.path)).toEqual([...afterState.keys()]);
    const newEntry = manifest.entries.find((e: { path: string }) => e.path === 'src/deep/nested/new.ts');
    expect(newEntry.before).toBeNull();
    expect(newEntry.after.mode).toBe(0o644);
    const gone = manifest.entries.find((e: { path: string }) => e.path === 'src/gone.ts');
    expect(gone.after).toBeNull();
    expect(manifest.entries.find((e: { path: string }) => e.path === 'bin/run.sh').before.mode).toBe(0o755);
  });

  it('undo after a hand-made apply restores every byte and mode', async () => {
    const beforeTree = await readTree(root);
    const plan = await planFor(root, afterState);
    const snap = await createSnapshot({ root, plan, message: 'm' });
    await applyWrites(root, plan.writes);
    await pruneEmptyDirs(root);
    expect(await readTree(root)).not.toEqual(beforeTree);

    const undo = await planUndo({ root });
    if (!undo.ok) throw new Error(undo.message);
    expect(undo.snapshot.id).toBe(snap.id);
    const ops = Object.fromEntries(undo.plan.files.map((f) => [f.path, f.op]));
    expect(ops).toEqual({
      'src/app.ts': 'update',
      'notes/untracked.md': 'update',
      'src/deep/nested/new.ts': 'delete',
      'src/gone.ts': 'add',
      'bin/run.sh': 'update',
      'assets/logo.bin': 'update',
      'empty.txt': 'update',
    });
    await applyWrites(root, undo.plan.writes);
    await pruneEmptyDirs(root);
    expect(await readTree(root)).toEqual(beforeTree);
    expect((await fs.stat(join(root, 'bin/run.sh'))).mode & 0o777).toBe(0o755);
    expect(git(root, 'fsck', '--strict', '--no-progress')).toBe('');
  });

  it('undo refuses, naming the file, after a hand edit; force overrides', async () => {
    const beforeTree = await readTree(root);
    const plan = await planFor(root, afterState);
    const snap = await createSnapshot({ root, plan });
    await applyWrites(root, plan.writes);
    await writeFile(root, 'src/app.ts', 'export const a = 3; // edited by hand\n');
    await writeFile(root, 'src/gone.ts', 'came back\n');

    const refused = await planUndo({ root, id: snap.id });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.code).toBe('STALE');
    expect(refused.changed).toEqual(['src/app.ts', 'src/gone.ts']);
    expect(refused.message).toContain('src/app.ts');
    expect(refused.message).toContain('src/gone.ts');
    expect(refused.message).not.toContain('bin/run.sh');

    const forced = await planUndo({ root, id: snap.id, force: true });
    if (!forced.ok) throw new Error(forced.message);
    await applyWrites(root, forced.plan.writes);
    await pruneEmptyDirs(root);
    expect(await readTree(root)).toEqual(beforeTree);
  });

  it('the snapshot is listed with its message and every touched path, absent ones included', async () => {
    const plan = await planFor(root, afterState);
    const snap = await createSnapshot({ root, plan, message: '  Apply patch: 7 files  ' });
    const [info, ...rest] = await listSnapshots({ root });
    expect(rest).toEqual([]);
    expect(info?.id).toBe(snap.id);
    expect(info?.commit).toBe(snap.commit);
    expect(info?.message).toBe('Apply patch: 7 files');
    expect(info?.paths).toEqual([...afterState.keys()]);
    expect(info?.files.find((f) => f.path === 'src/deep/nested/new.ts')?.op).toBe('add');
    expect(info?.files.find((f) => f.path === 'src/gone.ts')?.op).toBe('delete');
    expect(info?.files.find((f) => f.path === 'src/app.ts')?.op).toBe('update');
    expect(info?.undone).toBeNull();
    expect(Math.abs(Date.parse(info?.time ?? '') - Date.now())).toBeLessThan(600_000);
  });

  it('refuses with STALE and writes nothing when the disk changed since planning', async () => {
    const plan = await planFor(root, afterState);
    await writeFile(root, 'src/app.ts', 'changed under our feet\n');
    await writeFile(root, 'src/deep/nested/new.ts', 'appeared\n');
    const objectsBefore = git(root, 'count-objects', '-v');
    const error = await createSnapshot({ root, plan }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PatchsmithError', code: 'STALE' });
    expect((error as Error).message).toContain('src/app.ts');
    expect((error as Error).message).toContain('src/deep/nested/new.ts');
    expect(git(root, 'count-objects', '-v')).toBe(objectsBefore);
    expect(git(root, 'for-each-ref', 'refs/patchsmith')).toBe('');
  });
});

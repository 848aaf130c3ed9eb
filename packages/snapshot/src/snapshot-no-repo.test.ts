import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshot } from './create-snapshot.js';
import { listSnapshots } from './list-snapshots.js';
import { planUndo } from './plan-undo.js';
import {
  applyWrites,
  type DiskFile,
  git,
  planFor,
  pruneEmptyDirs,
  readTree,
  tempDir,
  text,
  writeFile,
} from './test-support/fixtures.js';

describe('snapshots without a git repository', () => {
  it('listing and undoing create nothing when there is no store', async () => {
    const root = await tempDir();
    await writeFile(root, 'a.txt', 'a\n');
    expect(await listSnapshots({ root })).toEqual([]);
    expect(await planUndo({ root })).toMatchObject({ ok: false, code: 'NO_SNAPSHOT' });
    expect(await fs.readdir(root)).toEqual(['a.txt']);
  });

  it('a stale plan leaves nothing behind, not even the store', async () => {
    const root = await tempDir();
    await writeFile(root, 'a.txt', 'a\n');
    const plan = await planFor(
      root,
      new Map<string, DiskFile | null>([
        ['a.txt', { bytes: text('b\n'), mode: 0o644 }],
        ['new/x.txt', { bytes: text('x\n'), mode: 0o644 }],
      ]),
    );
    await fs.mkdir(join(root, 'new', 'x.txt'), { recursive: true }); // a folder where the plan saw nothing
    await fs.rm(join(root, 'a.txt'));
    const error = await createSnapshot({ root, plan }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STALE', details: { path: 'a.txt' } });
    expect((error as Error).message).toMatch(
      /a\.txt \(it was removed.*new\/x\.txt \(it is now a directory\)/,
    );
    expect((await fs.readdir(root)).sort()).toEqual(['new']);
  });

  it('keeps ghost commits in a private bare repository under .patchsmith/ and undoes from it', async () => {
    const root = await tempDir();
    await writeFile(root, 'a.txt', 'a\n');
    await writeFile(root, 'tools/build', '#!/bin/sh\n', 0o750);
    await writeFile(root, 'blob.bin', new Uint8Array([0, 0, 0, 7]));
    const beforeTree = await readTree(root);
    const after = new Map<string, DiskFile | null>([
      ['a.txt', null],
      ['tools/build', { bytes: text('#!/bin/sh\nexit 1\n'), mode: 0o700 }],
      ['blob.bin', { bytes: new Uint8Array(), mode: 0o644 }],
      ['x/y/z.txt', { bytes: text('z\n'), mode: 0o644 }],
    ]);
    const plan = await planFor(root, after);
    const snap = await createSnapshot({ root, plan, message: 'no repo' });

    const store = join(root, '.patchsmith', 'snapshots.git');
    expect(git(store, 'rev-parse', '--is-bare-repository').trim()).toBe('true');
    expect(git(store, 'rev-parse', snap.ref).trim()).toBe(snap.commit);
    expect(git(store, 'fsck', '--strict', '--no-progress')).toBe('');
    expect(git(store, 'show', `${snap.ref}:files/tools/build`)).toBe('#!/bin/sh\n');
    expect(git(store, 'ls-tree', '-r', snap.ref)).toMatch(/^100755 blob [0-9a-f]{40}\tfiles\/tools\/build$/m);
    // The root holds nothing new but the private folder.
    expect((await fs.readdir(root)).sort()).toEqual(['.patchsmith', 'a.txt', 'blob.bin', 'tools']);

    await applyWrites(root, plan.writes);
    const undo = await planUndo({ root });
    if (!undo.ok) throw new Error(undo.message);
    await applyWrites(root, undo.plan.writes);
    await pruneEmptyDirs(root);
    const restored = await readTree(root);
    expect(restored).toEqual(beforeTree);
    expect(restored.get('tools/build')?.mode).toBe(0o750);
  });
});

import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { locateStateDir } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { createSnapshot } from './create-snapshot.js';
import { listSnapshots } from './list-snapshots.js';
import { planUndo } from './plan-undo.js';
import {
  applyWrites,
  type DiskFile,
  git,
  initRepo,
  planFor,
  readTree,
  tempDir,
  text,
  writeFile,
} from './test-support/fixtures.js';

/** Every path below `dir`, folders included, sorted. */
async function listAll(dir: string): Promise<string[]> {
  return ((await fs.readdir(dir, { recursive: true })) as string[]).sort();
}

const editA = (root: string) =>
  planFor(root, new Map<string, DiskFile | null>([['a.txt', { bytes: text('changed\n'), mode: 0o644 }]]));

/** A root beside a sibling folder, under one temp parent, with `a.txt` in the root. */
async function rootBesideSibling() {
  const parent = await tempDir();
  const root = join(parent, 'root');
  const sibling = join(parent, 'elsewhere');
  await writeFile(root, 'a.txt', 'one\n');
  await fs.mkdir(sibling);
  return { parent, root, sibling };
}

describe('a .git file is followed only to a real git directory', () => {
  it.each([
    ['a plain folder outside the root', 'gitdir: ../elsewhere\n', async (_: string) => {}],
    [
      'a folder with only a HEAD',
      'gitdir: ../elsewhere\n',
      (sibling: string) => fs.writeFile(join(sibling, 'HEAD'), 'ref: refs/heads/main\n'),
    ],
    [
      'a folder whose HEAD is junk',
      'gitdir: ../elsewhere\n',
      async (sibling: string) => {
        await fs.writeFile(join(sibling, 'HEAD'), 'hello\n');
        await fs.mkdir(join(sibling, 'objects'));
        await fs.mkdir(join(sibling, 'refs'));
      },
    ],
    [
      'a file',
      'gitdir: ../elsewhere/file.txt\n',
      (sibling: string) => fs.writeFile(join(sibling, 'file.txt'), 'x'),
    ],
    ['a missing folder', 'gitdir: ../elsewhere/none\n', async (_: string) => {}],
    ['a plain folder inside the root', 'gitdir: sub\n', async (_: string) => {}],
    ['no gitdir line at all', 'hello\ngitdir: ../elsewhere\n', async (_: string) => {}],
  ])('pointing to %s: no snapshot, nothing written anywhere', async (_, gitFile, prepare) => {
    const { root, sibling } = await rootBesideSibling();
    await fs.mkdir(join(root, 'sub'));
    await fs.writeFile(join(root, '.git'), gitFile);
    await prepare(sibling);
    const siblingBefore = await listAll(sibling);
    const rootBefore = await listAll(root);

    const location = await locateStateDir(root);
    expect(location).toMatchObject({ gitDir: null, workTree: null, stateDir: join(root, '.patchsmith') });
    expect(location.brokenGitFile).toContain(join(root, '.git'));

    const error = await createSnapshot({ root, plan: await editA(root) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STATE_INVALID' });
    expect((error as Error).message).toMatch(
      /no snapshot could be recorded.*\.git.*nothing was written; run with --no-snapshot/,
    );
    await expect(listSnapshots({ root })).rejects.toMatchObject({ code: 'STATE_INVALID' });
    expect(await planUndo({ root })).toMatchObject({ ok: false, code: 'STATE_INVALID' });

    expect(await listAll(sibling)).toEqual(siblingBefore);
    expect(await listAll(root)).toEqual(rootBefore);
  });

  it('a .git folder that is not a git directory gets a private store, not objects and refs', async () => {
    const root = await tempDir();
    await writeFile(root, 'a.txt', 'one\n');
    await fs.mkdir(join(root, '.git'));
    const stateDir = join(root, '.git', 'patchsmith');
    expect(await locateStateDir(root)).toMatchObject({ gitDir: join(root, '.git'), stateDir });
    const snap = await createSnapshot({ root, plan: await editA(root) });
    expect(await fs.readdir(join(root, '.git'))).toEqual(['patchsmith']);
    expect(git(join(stateDir, 'snapshots.git'), 'rev-parse', snap.ref).trim()).toBe(snap.commit);
  });

  it('a .git folder above the root that is not a git directory gets nothing', async () => {
    const parent = await tempDir();
    await fs.mkdir(join(parent, '.git'));
    const root = join(parent, 'root');
    await writeFile(root, 'a.txt', 'one\n');
    await expect(createSnapshot({ root, plan: await editA(root) })).rejects.toMatchObject({
      code: 'STATE_INVALID',
    });
    expect(await fs.readdir(join(parent, '.git'))).toEqual([]);
  });
});

/** Snapshots, applies and undoes a change to `a.txt` in `root`, checking git's view is untouched. */
async function snapshotAndUndo(root: string, gitRepos: readonly string[]) {
  const view = () =>
    gitRepos.map((repo) => [git(repo, 'status', '--porcelain'), git(repo, 'rev-parse', 'HEAD')]);
  const before = view();
  const tree = await readTree(root);
  const plan = await editA(root);
  const snap = await createSnapshot({ root, plan });
  expect(view()).toEqual(before);
  await applyWrites(root, plan.writes);
  const undo = await planUndo({ root });
  if (!undo.ok) throw new Error(undo.message);
  expect(undo.snapshot.id).toBe(snap.id);
  await applyWrites(root, undo.plan.writes);
  expect(await readTree(root)).toEqual(tree);
  expect(view()).toEqual(before);
  return snap;
}

describe('real .git files keep working', () => {
  it('a linked worktree (git worktree add): the ghost commit goes to the common repository', async () => {
    const parent = await tempDir();
    const main = join(parent, 'main');
    await writeFile(main, 'a.txt', 'one\n');
    await initRepo(main);
    git(main, 'add', '-A');
    git(main, 'commit', '-q', '-m', 'init');
    const linked = join(parent, 'linked');
    git(main, 'worktree', 'add', '-q', linked, '-b', 'other');
    expect((await fs.readFile(join(linked, '.git'), 'utf8')).startsWith('gitdir: ')).toBe(true);

    const snap = await snapshotAndUndo(linked, [main, linked]);
    expect(git(main, 'rev-parse', snap.ref).trim()).toBe(snap.commit);
    expect(git(main, 'cat-file', '-t', snap.commit).trim()).toBe('commit');
  });

  it('a submodule (its .git file points into the superproject .git/modules/)', async () => {
    const parent = await tempDir();
    const origin = join(parent, 'origin');
    await writeFile(origin, 'a.txt', 'one\n');
    await initRepo(origin);
    git(origin, 'add', '-A');
    git(origin, 'commit', '-q', '-m', 'sub');
    const superproject = join(parent, 'super');
    await writeFile(superproject, 'top.txt', 'top\n');
    await initRepo(superproject);
    git(superproject, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', origin, 'sub');
    git(superproject, 'commit', '-q', '-m', 'with sub');
    const sub = join(superproject, 'sub');
    expect(await fs.readFile(join(sub, '.git'), 'utf8')).toBe('gitdir: ../.git/modules/sub\n');

    const snap = await snapshotAndUndo(sub, [superproject, sub]);
    expect(git(sub, 'rev-parse', snap.ref).trim()).toBe(snap.commit);
    expect(git(superproject, 'for-each-ref', 'refs/patchsmith')).toBe('');
  });
});

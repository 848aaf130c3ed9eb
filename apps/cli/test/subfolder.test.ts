import { execFileSync, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';
import { readTree } from './tree.js';

// Run from a subfolder of a repository, patchsmith takes an edit's paths as `git apply` does;
// each case runs real `git apply` in one copy of the repository and patchsmith in another.

let base: string;
let work: string;
let count = 0;

const git = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ps-subfolder-'));
  base = join(work, 'base');
  await mkdir(join(base, 'sub', 'deep'), { recursive: true });
  await mkdir(join(base, 'other'));
  await writeFile(join(base, 'top.txt'), 'top\n');
  await writeFile(join(base, 'sub', 'b.txt'), 'b\n');
  await writeFile(join(base, 'sub', 'deep', 'd.txt'), 'd\n');
  await writeFile(join(base, 'other', 'c.txt'), 'c\n');
  git(base, ['init', '-q']);
  git(base, ['add', '.']);
  git(base, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init']);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A fresh copy of the repository. */
async function copy(): Promise<string> {
  const dir = join(work, `r${count++}`);
  await cp(base, dir, { recursive: true });
  return dir;
}

/** The work tree's files and folders, `.git` left out. */
async function workTree(dir: string): Promise<Map<string, string>> {
  const tree = await readTree(dir);
  for (const path of [...tree.keys()]) if (path.startsWith('.git/')) tree.delete(path);
  return tree;
}

/** Real `git apply ARGS` of `patch` in `cwd` (below the copy's top). */
async function gitApply(cwd: string, patch: string, args: string[] = []) {
  const top = await copy();
  const r = spawnSync('git', ['apply', ...args], { cwd: join(top, cwd), input: patch, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr, tree: await workTree(top) };
}

/** `patchsmith ARGS` with `patch` on stdin in `cwd` (below the copy's top). */
async function patchsmith(cwd: string, patch: string, args: string[] = ['apply']) {
  const top = await copy();
  const r = runBin(PATCHSMITH_BIN, args, { cwd: join(top, cwd), input: patch });
  return { ...r, top, tree: await workTree(top) };
}

const update = (path: string, from: string, to: string, header = true) =>
  `${header ? `diff --git a/${path} b/${path}\n` : ''}--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-${from}\n+${to}\n`;

const INSIDE_AND_OUTSIDE = update('other/c.txt', 'c', 'C') + update('sub/b.txt', 'b', 'B');

describe('paths from a subfolder, as git apply takes them', () => {
  it("a 'diff --git' patch names paths from the top; a file outside the folder is skipped, and said so", async () => {
    const reference = await gitApply('sub', INSIDE_AND_OUTSIDE);
    const ours = await patchsmith('sub', INSIDE_AND_OUTSIDE);
    expect(reference.status).toBe(0);
    expect(ours.status).toBe(0);
    expect(ours.tree).toEqual(reference.tree);
    expect(ours.tree.get('sub/b.txt')).toBe(Buffer.from('B\n').toString('base64'));
    expect(ours.stdout).toContain('[M] b.txt (+1 -1)');
    expect(ours.stderr).toBe("Skipped patch 'other/c.txt': it lies outside sub/, where it is applied\n");
  });

  it('--json lists the skipped sections; --quiet silences the note', async () => {
    const json = await patchsmith('sub', INSIDE_AND_OUTSIDE, ['apply', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      files: [{ path: 'b.txt' }],
      skipped: ['other/c.txt'],
    });
    expect(json.stderr).toBe('');
    const quiet = await patchsmith('sub', INSIDE_AND_OUTSIDE, ['apply', '--quiet']);
    expect(quiet).toMatchObject({ status: 0, stdout: '', stderr: '' });
  });

  it('--cwd SUB from the top is the same as running in SUB', async () => {
    const reference = await gitApply('sub', INSIDE_AND_OUTSIDE);
    const ours = await patchsmith('.', INSIDE_AND_OUTSIDE, ['apply', '--cwd', 'sub']);
    expect(ours.status).toBe(0);
    expect(ours.tree).toEqual(reference.tree);
  });

  it('a patch whose every file lies outside the folder is refused, never a success that did nothing', async () => {
    const patch = update('other/c.txt', 'c', 'C');
    const reference = await gitApply('sub', patch);
    const ours = await patchsmith('sub', patch);
    // git exits 0 having done nothing; the tree is the same either way.
    expect(reference.status).toBe(0);
    expect(ours.tree).toEqual(reference.tree);
    expect(ours.status).toBe(1);
    expect(ours.stderr).toContain(
      'PATH_OUTSIDE_ROOT (other/c.txt): every file of the patch lies outside sub/',
    );
  });

  it('a traditional diff is relative to the folder, or to the top when its names start with the folder', async () => {
    for (const patch of [update('b.txt', 'b', 'B', false), update('sub/b.txt', 'b', 'B', false)]) {
      const reference = await gitApply('sub', patch);
      const ours = await patchsmith('sub', patch);
      expect(reference.status).toBe(0);
      expect(ours.status).toBe(0);
      expect(ours.tree).toEqual(reference.tree);
      expect(ours.tree.get('sub/b.txt')).toBe(Buffer.from('B\n').toString('base64'));
    }
  });

  it('--directory DIR goes in front of every path before the folder rule, as git’s does', async () => {
    const patch = update('d.txt', 'd', 'D');
    const reference = await gitApply('sub', patch, ['--directory=sub/deep']);
    const ours = await patchsmith('sub', patch, ['apply', '--directory', 'sub/deep']);
    expect(ours.status).toBe(0);
    expect(ours.tree).toEqual(reference.tree);
    expect(ours.tree.get('sub/deep/d.txt')).toBe(Buffer.from('D\n').toString('base64'));
    // `deep/d.txt` from the top is outside sub/: git skips it, patchsmith refuses it.
    const outside = await patchsmith('sub', patch, ['apply', '--directory', 'deep']);
    expect(outside.status).toBe(1);
    expect(outside.tree).toEqual((await gitApply('sub', patch, ['--directory=deep'])).tree);
    // Without a `diff --git` header, DIR is below the folder the patch is applied in.
    const traditional = await patchsmith('sub', update('d.txt', 'd', 'D', false), [
      'apply',
      '--directory',
      'deep/',
    ]);
    expect(traditional.status).toBe(0);
    expect(traditional.tree).toEqual(
      (await gitApply('sub', update('d.txt', 'd', 'D', false), ['--directory=deep'])).tree,
    );
    expect((await patchsmith('sub', patch, ['apply', '--directory', '/tmp'])).status).toBe(2);
  });

  it('a Codex patch, SEARCH/REPLACE and str_replace are relative to the folder', async () => {
    const codex = '*** Begin Patch\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch\n';
    const edit = JSON.stringify({ command: 'str_replace', path: 'deep/d.txt', old_str: 'd', new_str: 'D' });
    expect((await patchsmith('sub', codex)).tree.get('sub/b.txt')).toBe(
      Buffer.from('B\n').toString('base64'),
    );
    expect((await patchsmith('sub', edit)).tree.get('sub/deep/d.txt')).toBe(
      Buffer.from('D\n').toString('base64'),
    );
  });

  it('nothing outside the folder is touched: a move out of it is skipped, a move into it from outside refused', async () => {
    const moveOut =
      'diff --git a/sub/b.txt b/other/b.txt\nsimilarity index 100%\nrename from sub/b.txt\nrename to other/b.txt\n';
    const reference = await gitApply('sub', moveOut);
    const ours = await patchsmith('sub', moveOut);
    expect(ours.tree).toEqual(reference.tree);
    expect(ours.status).toBe(1);
    // git would delete other/c.txt, outside the folder it was asked to work in.
    const moveIn =
      'diff --git a/other/c.txt b/sub/c.txt\nsimilarity index 100%\nrename from other/c.txt\nrename to sub/c.txt\n';
    const refused = await patchsmith('sub', moveIn);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('PATH_OUTSIDE_ROOT');
    expect(refused.tree).toEqual(await workTree(base));
    // A path that climbs out after the folder's prefix is refused by the transaction, as git refuses it.
    const climbing = update('sub/../other/c.txt', 'c', 'C');
    expect((await gitApply('sub', climbing)).status).not.toBe(0);
    const climbed = await patchsmith('sub', climbing);
    expect(climbed.status).toBe(1);
    expect(climbed.stderr).toContain('PATH_OUTSIDE_ROOT');
    expect(climbed.tree).toEqual(await workTree(base));
  });

  it('the state dir is the repository’s: undo and log work from the top and from the folder', async () => {
    const ours = await patchsmith('sub', INSIDE_AND_OUTSIDE);
    expect(ours.status).toBe(0);
    expect(await readdir(join(ours.top, 'sub'))).not.toContain('.patchsmith');
    expect(git(ours.top, ['for-each-ref', '--format=%(refname)', 'refs/patchsmith/'])).toMatch(
      /^refs\/patchsmith\/.+\n$/,
    );
    const log = runBin(PATCHSMITH_BIN, ['log', '--json'], { cwd: ours.top });
    expect(JSON.parse(log.stdout)).toMatchObject([{ state: 'applied', files: [{ path: 'sub/b.txt' }] }]);
    const undo = runBin(PATCHSMITH_BIN, ['undo'], { cwd: join(ours.top, 'sub') });
    expect(undo.status).toBe(0);
    expect(await workTree(ours.top)).toEqual(await workTree(base));
  });

  it('--base-from names a file as the command sees it, relative to the folder', async () => {
    const patch = update('sub/b.txt', 'b', 'B');
    const readB = join(work, 'read-b.txt');
    await writeFile(readB, 'b\n');
    const asWritten = await patchsmith('sub', patch, ['apply', '--base-from', `sub/b.txt=${readB}`]);
    expect(asWritten.status).toBe(2);
    expect(asWritten.stderr).toContain('the edit does not touch sub/b.txt (it touches b.txt;');
    expect(asWritten.tree).toEqual(await workTree(base));
    const relative = await patchsmith('sub', patch, ['apply', '--base-from', `b.txt=${readB}`]);
    expect(relative.status).toBe(0);
  });

  it('patchsmith diff from the folder shows what apply would write there', async () => {
    const ours = await patchsmith('sub', INSIDE_AND_OUTSIDE, ['diff']);
    expect(ours.status).toBe(0);
    expect(ours.stdout).toContain('+++ b/b.txt');
    expect(ours.stdout).not.toContain('c.txt');
    expect(ours.stderr).toContain("Skipped patch 'other/c.txt'");
    expect(ours.tree).toEqual(await workTree(base));
  });
});

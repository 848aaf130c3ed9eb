/**
 * Symbolic links in git diffs through `runEdit`: a generated history of link adds, retargets,
 * deletes and file <-> link swaps replays byte-exact (the tree `git write-tree` records after each
 * commit's diff is the commit's own: modes 120000 and targets included), in both directions of the
 * history; undo restores links; and a link the patch makes never leads out of the root.
 */
import { mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';
import { random } from './test-support/generate-history.js';
import { git } from './test-support/git-trees.js';
import { hashTree } from './test-support/hash-tree.js';
import { undoLast } from './undo.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'patchsmith-symlinks-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const text = (...lines: string[]) => `${lines.join('\n')}\n`;
const treeOf = (repo: string, rev: string) =>
  git(repo, ['rev-parse', `${rev}^{tree}`])
    .toString()
    .trim();
/** The tree git records for the work tree now. */
function workTree(repo: string): string {
  git(repo, ['add', '-A']);
  return git(repo, ['write-tree']).toString().trim();
}

const FILES = ['a.txt', 'src/b.txt', 'src/deep/c.txt'];
const LINKS = ['l1', 'src/l2', 'src/deep/l3', 'up'];
const TARGETS: Record<string, string[]> = {
  l1: ['a.txt', 'src/b.txt', 'src', 'src/deep/c.txt', 'missing-yet'],
  'src/l2': ['b.txt', '../a.txt', 'deep', 'deep/c.txt'],
  'src/deep/l3': ['c.txt', '../b.txt', '../../a.txt', '..'],
  up: ['src/deep', 'a.txt'],
};

/** A history of link changes made with the git CLI; returns its commits, oldest first. */
async function linkHistory(repo: string, commits: number, seed: number): Promise<string[]> {
  const rand = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  await mkdir(repo);
  git(repo, ['init', '-q']);
  for (const path of FILES) {
    await mkdir(dirname(join(repo, path)), { recursive: true });
    await writeFile(join(repo, path), `${path}\n`);
  }
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-qm', 'files']);
  const made = [git(repo, ['rev-parse', 'HEAD']).toString().trim()];
  for (let i = 0; i < commits; i++) {
    const path = pick(LINKS);
    const at = join(repo, path);
    await rm(at, { force: true, recursive: false }).catch(() => {});
    const roll = rand();
    // A link (new or retargeted), gone, or a regular file where a link was.
    if (roll < 0.6) await symlink(pick(TARGETS[path]!), at);
    else if (roll < 0.8) await writeFile(at, `a file where ${path} links (${i})\n`);
    if (rand() < 0.3) await writeFile(join(repo, pick(FILES)), `edited ${i}\n`);
    git(repo, ['add', '-A']);
    if (git(repo, ['status', '--porcelain']).length === 0) continue;
    git(repo, ['commit', '-qm', `step ${i}`]);
    made.push(git(repo, ['rev-parse', 'HEAD']).toString().trim());
  }
  return made;
}

describe('runEdit: symbolic links in git diffs', () => {
  it('a generated history of link adds, retargets, deletes and file <-> link swaps replays byte-exact, forwards and back', async () => {
    const source = join(base, 'source');
    const commits = await linkHistory(source, 30, 15);
    expect(git(source, ['log', '--all', '-p']).toString()).toMatch(
      /new file mode 120000[\s\S]*deleted file mode 120000/,
    );
    const replica = join(base, 'replica');
    git(base, ['clone', '-q', source, replica]);
    git(replica, ['checkout', '-q', commits[0]!]);
    const order = [...commits.keys()].slice(1);
    for (const [from, to] of [...order.map((i) => [i - 1, i]), ...order.reverse().map((i) => [i, i - 1])] as [
      number,
      number,
    ][]) {
      const diff = git(source, ['diff', '--binary', commits[from]!, commits[to]!]).toString();
      const report = await runEdit({ kind: 'patch', text: diff }, { root: replica, snapshot: false });
      expect(report.errors, `${from} -> ${to}`).toStrictEqual([]);
      expect(workTree(replica), `${from} -> ${to}`).toBe(treeOf(source, commits[to]!));
    }
  });

  it('undo restores a retargeted, a deleted and a replaced link', async () => {
    const repo = join(base, 'repo');
    await mkdir(repo);
    git(repo, ['init', '-q']);
    await writeFile(join(repo, 't.txt'), 't\n');
    for (const name of ['retarget', 'gone', 'replaced']) await symlink('t.txt', join(repo, name));
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-qm', 'links']);
    await rm(join(repo, 'retarget'));
    await symlink('u.txt', join(repo, 'retarget'));
    await rm(join(repo, 'gone'));
    await rm(join(repo, 'replaced'));
    await writeFile(join(repo, 'replaced'), 'a file\n');
    git(repo, ['add', '-A']);
    const diff = git(repo, ['diff', '--cached']).toString();
    const wanted = git(repo, ['write-tree']).toString().trim();
    git(repo, ['reset', '-q', '--hard']);
    const before = await hashTree(repo);
    expect((await runEdit({ kind: 'patch', text: diff }, { root: repo })).errors).toStrictEqual([]);
    expect(workTree(repo)).toBe(wanted);
    git(repo, ['reset', '-q']);
    expect(await readlink(join(repo, 'retarget'))).toBe('u.txt');
    expect(await undoLast({ root: repo })).toMatchObject({ ok: true, errors: [] });
    const after = await hashTree(repo);
    // The index git add touched is not the work tree: compare the files and links only.
    const work = (tree: Record<string, string>) =>
      Object.entries(tree).filter(([p]) => !p.startsWith('.git/'));
    expect(work(after)).toStrictEqual(work(before));
    expect(await readlink(join(repo, 'gone'))).toBe('t.txt');
  });
});

describe('runEdit: a link the patch makes never leads out', () => {
  const newLink = (path: string, target: string) =>
    text(
      `diff --git a/${path} b/${path}`,
      'new file mode 120000',
      '--- /dev/null',
      `+++ b/${path}`,
      '@@ -0,0 +1 @@',
      `+${target}`,
      '\\ No newline at end of file',
    );

  it.each([
    ['an absolute target', 'l', '/etc/passwd', 'is an absolute path'],
    ['a target climbing out', 'sub/l', '../../outside', 'leads outside the root'],
    [
      'a target climbing back through a name',
      'l',
      'sub/../../outside',
      'climbs back out of a folder it names',
    ],
  ])(
    '%s is PATH_OUTSIDE_ROOT naming the link and its line; nothing is written',
    async (_name, path, target, why) => {
      const root = join(base, 'root');
      await mkdir(join(root, 'sub'), { recursive: true });
      const before = await hashTree(root);
      const report = await runEdit({ kind: 'patch', text: newLink(path, target) }, { root, snapshot: false });
      expect(report.errors).toMatchObject([{ code: 'PATH_OUTSIDE_ROOT', path, line: 1 }]);
      expect(report.errors[0]!.message).toContain(why);
      expect(await hashTree(root)).toStrictEqual(before);
    },
  );

  it('a host may let links point out (allowOutsideLinks), never into private state; no write goes through them', async () => {
    const root = join(base, 'root');
    await mkdir(root);
    git(root, ['init', '-q']);
    const options = { root, snapshot: false, allowOutsideLinks: true } as const;
    expect((await runEdit({ kind: 'patch', text: newLink('etc', '/etc') }, options)).errors).toStrictEqual(
      [],
    );
    expect(await readlink(join(root, 'etc'))).toBe('/etc');
    const into = await runEdit({ kind: 'patch', text: newLink('state', '.git/patchsmith') }, options);
    expect(into.errors).toMatchObject([{ code: 'PATH_OUTSIDE_ROOT', path: 'state' }]);
    const through = text('*** Begin Patch', '*** Add File: etc/pwned', '+x', '*** End Patch');
    expect((await runEdit({ kind: 'patch', text: through }, options)).errors).toMatchObject([
      { code: 'PATH_OUTSIDE_ROOT', path: 'etc/pwned' },
    ]);
  });

  it('a hostile link out of the root is replaced by a file as a link, never written through', async () => {
    const root = join(base, 'root');
    const outside = join(base, 'outside.txt');
    await mkdir(root);
    await writeFile(outside, 'outside\n');
    await symlink(outside, join(root, 'l'));
    const swap = text(
      'diff --git a/l b/l',
      'deleted file mode 120000',
      '--- a/l',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      `-${outside}`,
      '\\ No newline at end of file',
      'diff --git a/l b/l',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/l',
      '@@ -0,0 +1 @@',
      '+inside now',
    );
    expect((await runEdit({ kind: 'patch', text: swap }, { root, snapshot: false })).errors).toStrictEqual(
      [],
    );
    expect(await readFile(join(root, 'l'), 'utf8')).toBe('inside now\n');
    expect(await readFile(outside, 'utf8')).toBe('outside\n');
    // A text edit of the same path as a file still refuses to follow such a link.
    await rm(join(root, 'l'));
    await symlink(outside, join(root, 'l'));
    const through = text(
      '*** Begin Patch',
      '*** Update File: l',
      '@@',
      '-outside',
      '+pwned',
      '*** End Patch',
    );
    const refused = await runEdit({ kind: 'patch', text: through }, { root, snapshot: false });
    expect(refused.errors).toMatchObject([{ code: 'PATH_OUTSIDE_ROOT', path: 'l' }]);
    expect(await readFile(outside, 'utf8')).toBe('outside\n');
  });

  it('no write of the same patch goes through a link it makes, and a later patch writes through one only inside', async () => {
    const root = join(base, 'root');
    await mkdir(join(root, 'in'), { recursive: true });
    const same =
      newLink('l', 'in') +
      text(
        'diff --git a/l/x b/l/x',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/l/x',
        '@@ -0,0 +1 @@',
        '+x',
      );
    const refused = await runEdit({ kind: 'patch', text: same }, { root, snapshot: false });
    expect(refused.errors).toMatchObject([{ code: 'NOT_A_FILE', path: 'l/x' }]);
    expect(
      (await runEdit({ kind: 'patch', text: newLink('l', 'in') }, { root, snapshot: false })).errors,
    ).toStrictEqual([]);
    const through = text('*** Begin Patch', '*** Add File: l/x', '+x', '*** End Patch');
    expect((await runEdit({ kind: 'patch', text: through }, { root, snapshot: false })).errors).toStrictEqual(
      [],
    );
    expect(await hashTree(join(root, 'in'))).toMatchObject({ x: expect.any(String) });
  });
});

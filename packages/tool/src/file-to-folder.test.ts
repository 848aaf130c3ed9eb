/**
 * A file replaced by a folder, and a folder by a file, within one patch, through `runEdit`: the
 * `git diff` of each replays to git's own tree (checked with the git CLI), a Codex patch says the
 * same, a patch that would leave a file below a file is refused with nothing written, and undo
 * brings the before state back.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';
import { git } from './test-support/git-trees.js';
import { hashTree } from './test-support/hash-tree.js';
import { undoLast } from './undo.js';

let repo: string;
beforeEach(async () => {
  repo = await mkdtemp(join(tmpdir(), 'patchsmith-file-to-folder-'));
  git(repo, ['init', '-q']);
});
afterEach(async () => {
  await rm(repo, { recursive: true, force: true });
});

const text = (...lines: string[]) => `${lines.join('\n')}\n`;
/** The work tree's files and folders with modes and hashes, `.git/` left out. */
const workFiles = async () =>
  Object.fromEntries(Object.entries(await hashTree(repo)).filter(([path]) => !path.startsWith('.git/')));
const patch = (t: string, snapshot = false) => runEdit({ kind: 'patch', text: t }, { root: repo, snapshot });
/** The tree git would record for the work tree now (modes, blob ids, paths). */
const workTree = () => {
  git(repo, ['add', '-A']);
  const listed = git(repo, ['ls-files', '-s']).toString();
  git(repo, ['reset', '-q']);
  return listed;
};

/** Commits `before`, changes the work tree with `change`, and returns git's diff and resulting tree. */
async function recorded(before: () => Promise<void>, change: () => Promise<void>) {
  await before();
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-qm', 'before']);
  await change();
  git(repo, ['add', '-A']);
  const diff = git(repo, ['diff', '--cached']).toString();
  const after = git(repo, ['ls-files', '-s']).toString();
  git(repo, ['reset', '-q', '--hard']);
  git(repo, ['clean', '-qfd']);
  return { diff, after };
}

describe('runEdit: a file replaced by a folder within one patch', () => {
  it('file -> folder: git diff (delete a, add a/b and a/c/d) replays to git’s tree, and undo restores it', async () => {
    const { diff, after } = await recorded(
      () => writeFile(join(repo, 'a'), 'a file\n'),
      async () => {
        await rm(join(repo, 'a'));
        await mkdir(join(repo, 'a/c'), { recursive: true });
        await writeFile(join(repo, 'a/b'), 'b\n');
        await writeFile(join(repo, 'a/c/d'), 'd\n');
      },
    );
    expect(diff).toMatch(/^deleted file mode 100644$/m);
    const before = await workFiles();
    const report = await patch(diff, true);
    expect(report.errors).toStrictEqual([]);
    expect(report.files.map((f) => [f.op, f.path])).toStrictEqual([
      ['delete', 'a'],
      ['add', 'a/b'],
      ['add', 'a/c/d'],
    ]);
    expect(workTree()).toBe(after);
    const undone = await undoLast({ root: repo });
    expect(undone).toMatchObject({ errors: [], ok: true });
    expect(await workFiles()).toStrictEqual(before);
  });

  it('folder -> file: git diff (add a, then delete a/b and a/c/d) replays to git’s tree, and undo restores it', async () => {
    const { diff, after } = await recorded(
      async () => {
        await mkdir(join(repo, 'a/c'), { recursive: true });
        await writeFile(join(repo, 'a/b'), 'b\n');
        await writeFile(join(repo, 'a/c/d'), 'd\n');
      },
      async () => {
        await rm(join(repo, 'a'), { recursive: true });
        await writeFile(join(repo, 'a'), 'a file now\n');
      },
    );
    // git prints the new file first: the patch's order is not the order the tree can change in.
    expect(diff.indexOf('+++ b/a\n')).toBeLessThan(diff.indexOf('--- a/a/b\n'));
    const before = await workFiles();
    const report = await patch(diff, true);
    expect(report.errors).toStrictEqual([]);
    expect(workTree()).toBe(after);
    expect(await readFile(join(repo, 'a'), 'utf8')).toBe('a file now\n');
    const undone = await undoLast({ root: repo });
    expect(undone).toMatchObject({ errors: [], ok: true });
    expect(await workFiles()).toStrictEqual(before);
  });

  it('a Codex patch expresses both, in either order of its operations', async () => {
    await writeFile(join(repo, 'x'), 'x\n');
    const toFolder = text(
      '*** Begin Patch',
      '*** Add File: x/inner.txt',
      '+inner',
      '*** Delete File: x',
      '*** End Patch',
    );
    expect((await patch(toFolder)).errors).toStrictEqual([]);
    expect(await readFile(join(repo, 'x/inner.txt'), 'utf8')).toBe('inner\n');
    const toFile = text(
      '*** Begin Patch',
      '*** Delete File: x/inner.txt',
      '*** Add File: x',
      '+x again',
      '*** End Patch',
    );
    expect((await patch(toFile)).errors).toStrictEqual([]);
    expect(await readFile(join(repo, 'x'), 'utf8')).toBe('x again\n');
  });

  it('a file left below a file, or a folder holding files the patch does not name, is NOT_A_FILE and nothing is written', async () => {
    await writeFile(join(repo, 'a'), 'a file\n');
    await mkdir(join(repo, 'd'));
    await writeFile(join(repo, 'd/named.txt'), 'named\n');
    await writeFile(join(repo, 'd/other.txt'), 'not named\n');
    const before = await hashTree(repo);
    const below = await patch(text('*** Begin Patch', '*** Add File: a/b', '+b', '*** End Patch'));
    expect(below.errors).toMatchObject([
      { code: 'NOT_A_FILE', path: 'a/b', message: 'cannot write a/b: a is a file, not a folder' },
    ]);
    const kept = await patch(
      text(
        '*** Begin Patch',
        '*** Update File: a',
        '@@',
        '-a file',
        '+still a file',
        '*** Add File: a/b',
        '+b',
        '*** End Patch',
      ),
    );
    expect(kept.errors).toMatchObject([{ code: 'NOT_A_FILE', path: 'a/b' }]);
    const holding = await patch(
      text('*** Begin Patch', '*** Delete File: d/named.txt', '*** Add File: d', '+d', '*** End Patch'),
    );
    expect(holding.errors).toMatchObject([
      {
        code: 'NOT_A_FILE',
        path: 'd',
        message: expect.stringContaining('holding d/other.txt, which the patch does not delete'),
      },
    ]);
    const checked = await runEdit(
      {
        kind: 'patch',
        text: text(
          '*** Begin Patch',
          '*** Delete File: d/named.txt',
          '*** Add File: d',
          '+d',
          '*** End Patch',
        ),
      },
      { root: repo, dryRun: true },
    );
    expect(checked.errors).toMatchObject([{ code: 'NOT_A_FILE', path: 'd' }]);
    expect(await hashTree(repo)).toStrictEqual(before);
  });
});

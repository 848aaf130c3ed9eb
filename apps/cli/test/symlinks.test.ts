/**
 * Symbolic links in git diffs through the built `patchsmith apply`: added, retargeted, replaced by
 * a file and deleted as links (checked with `git write-tree` and `readlink`), undone by `undo`,
 * and a link out of the root refused in JSON with nothing written.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';
import { readTree } from './tree.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-symlinks-'));
  git('init', '-q');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ps = (args: string[], input?: string) => runBin(PATCHSMITH_BIN, args, { cwd: dir, input });
function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}

it('a git diff of link changes applies to the links themselves, byte-exact, and undo restores them', async () => {
  await mkdir(join(dir, 'docs'));
  await writeFile(join(dir, 'docs/a.md'), 'a\n');
  await symlink('docs/a.md', join(dir, 'retarget'));
  await symlink('docs/a.md', join(dir, 'to-file'));
  await symlink('docs', join(dir, 'gone'));
  git('add', '-A');
  git('commit', '-qm', 'links');
  await rm(join(dir, 'retarget'));
  await symlink('docs', join(dir, 'retarget'));
  await rm(join(dir, 'to-file'));
  await writeFile(join(dir, 'to-file'), 'now a file\n');
  await rm(join(dir, 'gone'));
  await symlink('../a.md', join(dir, 'docs/up'));
  git('add', '-A');
  const diff = git('diff', '--cached');
  const wanted = git('write-tree');
  git('reset', '-q', '--hard');
  const r = ps(['apply'], diff);
  expect(r.stdout).toContain('Patch applied.');
  expect(r.status).toBe(0);
  expect(await readlink(join(dir, 'retarget'))).toBe('docs');
  expect(await readlink(join(dir, 'docs/up'))).toBe('../a.md');
  git('add', '-A');
  expect(git('write-tree')).toBe(wanted);
  git('reset', '-q');
  expect(ps(['undo']).status).toBe(0);
  expect(await readlink(join(dir, 'gone'))).toBe('docs');
  expect(await readlink(join(dir, 'to-file'))).toBe('docs/a.md');
  git('add', '-A');
  expect(git('write-tree')).toBe(git('rev-parse', 'HEAD^{tree}'));
});

it('a link that leads out of the root is PATH_OUTSIDE_ROOT in JSON, and nothing is written', async () => {
  const diff = [
    'diff --git a/etc b/etc',
    'new file mode 120000',
    '--- /dev/null',
    '+++ b/etc',
    '@@ -0,0 +1 @@',
    '+../../../etc',
    '\\ No newline at end of file',
    '',
  ].join('\n');
  const r = ps(['apply', '--json'], diff);
  expect(r.status).toBe(1);
  expect(JSON.parse(r.stdout).errors).toMatchObject([{ code: 'PATH_OUTSIDE_ROOT', path: 'etc', line: 1 }]);
  expect([...(await readTree(dir)).keys()].filter((p) => !p.startsWith('.git/'))).toStrictEqual([]);
});

/**
 * `git diff --binary` through the real `patchsmith apply` bin: the work tree becomes the commit
 * byte for byte (checked with git), and a file that is not the patch's base exits 1 with STALE,
 * `--json` saying ok:false, the tree unchanged.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';

let repo: string;
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo }).toString('utf8');
const bytes = (length: number, seed: number) =>
  Buffer.from(Array.from({ length }, (_, i) => (i === 0 ? 0 : (i * 13 + seed) % 256)));

let diff: string;
beforeEach(async () => {
  repo = await mkdtemp(join(tmpdir(), 'ps-cli-binary-'));
  git('init', '-q', '-b', 'main');
  await writeFile(join(repo, 'image.bin'), bytes(4000, 1));
  git('add', '.');
  git('commit', '-qm', 'base');
  const edited = bytes(4000, 1);
  edited.write('edited', 1234);
  await writeFile(join(repo, 'image.bin'), edited);
  await writeFile(join(repo, 'icon.bin'), bytes(100, 2));
  git('add', '.');
  git('commit', '-qm', 'change');
  diff = git('diff', '--binary', 'HEAD~1', 'HEAD');
  git('checkout', '-q', 'HEAD~1');
});
afterEach(async () => {
  await rm(repo, { recursive: true, force: true });
});

it('applies a git binary patch from stdin byte-exact', () => {
  expect(diff).toMatch(/^GIT binary patch\ndelta /m);
  const result = runBin(PATCHSMITH_BIN, ['apply'], { cwd: repo, input: diff });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  git('add', '-A');
  git('diff', '--cached', '--quiet', 'main');
});

it('refuses a file that is not the base with STALE, in human and JSON output, and changes nothing', async () => {
  await writeFile(join(repo, 'image.bin'), bytes(4000, 3));
  const before = git('status', '--porcelain', '--untracked-files=all');
  const human = runBin(PATCHSMITH_BIN, ['apply'], { cwd: repo, input: diff });
  expect(human.status).toBe(1);
  expect(human.stderr).toContain('STALE');
  expect(human.stderr).toMatch(/image\.bin is not the file the binary patch was made from/);
  expect(human.stderr).not.toMatch(/\n\s+at /);
  const json = runBin(PATCHSMITH_BIN, ['apply', '--json'], { cwd: repo, input: diff });
  expect(json.status).toBe(1);
  const report = JSON.parse(json.stdout);
  expect(report.ok).toBe(false);
  expect(report.errors[0].code).toBe('STALE');
  expect(git('status', '--porcelain', '--untracked-files=all')).toBe(before);
});

/**
 * `git diff --binary` patches through runEdit, checked with the git CLI: byte-exact results, and
 * STALE or PARSE_ERROR with the tree left as it was when the file is not the patch's base or the
 * patch is corrupt.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';

let repo: string;
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'core.autocrlf=false', ...args], {
    cwd: repo,
  }).toString('utf8');

/** Bytes that git sees as binary (a NUL), distinct per seed. */
const blob = (seed: number, length = 2000) => {
  const bytes = Buffer.from(Array.from({ length }, (_, i) => (i * 31 + seed * 17 + ((i * i) % 7)) % 256));
  bytes[0] = 0;
  return bytes;
};

beforeEach(async () => {
  repo = await mkdtemp(join(tmpdir(), 'patchsmith-binary-'));
  git('init', '-q', '-b', 'main');
  await writeFile(join(repo, 'edit.bin'), blob(1));
  await writeFile(join(repo, 'move.bin'), blob(2, 300));
  await writeFile(join(repo, 'gone.bin'), blob(3, 50));
  await writeFile(join(repo, 'mode.bin'), blob(4, 20));
  git('add', '.');
  git('commit', '-qm', 'base');
});
afterEach(async () => {
  await rm(repo, { recursive: true, force: true });
});

/** Makes commit B on top of the base, returns `git diff --binary base B`, and checks the base out again. */
async function changes(): Promise<string> {
  const edited = blob(1);
  edited.write('patched in place', 700);
  await writeFile(join(repo, 'edit.bin'), Buffer.concat([edited, Buffer.from('tail')]));
  await mkdir(join(repo, 'moved'));
  git('mv', 'move.bin', 'moved/away.bin');
  await writeFile(join(repo, 'moved/away.bin'), Buffer.concat([blob(2, 300), Buffer.from([0, 1])]));
  git('rm', '-q', 'gone.bin');
  await chmod(join(repo, 'mode.bin'), 0o755);
  await writeFile(join(repo, 'new.bin'), blob(5, 64));
  git('add', '-A');
  git('commit', '-qm', 'B');
  const diff = git('diff', '--binary', 'HEAD~1', 'HEAD');
  git('checkout', '-q', 'HEAD~1');
  return diff;
}

/** The work tree's state as git sees it, to show nothing changed. */
const status = () => git('status', '--porcelain', '--untracked-files=all');

describe('git binary patches through runEdit', () => {
  it('applies deltas, literals, a rename with an edit, a mode change and a deletion byte-exact', async () => {
    const diff = await changes();
    expect(diff).toMatch(/^delta \d+$/m);
    expect(diff).toMatch(/^literal \d+$/m);
    const report = await runEdit({ kind: 'patch', text: diff }, { root: repo, snapshot: false });
    expect(report.errors).toEqual([]);
    expect(report.ok).toBe(true);
    git('add', '-A');
    // Exit status 0: the index (the work tree as applied) is byte for byte commit B, modes included.
    git('diff', '--cached', '--quiet', 'main');
    expect(report.files.map((f) => [f.op, f.path]).sort()).toEqual([
      ['add', 'new.bin'],
      ['delete', 'gone.bin'],
      ['move', 'move.bin'],
      ['update', 'edit.bin'],
      ['update', 'mode.bin'],
    ]);
  });

  it('is STALE when a file is not the one the patch was made from, and writes nothing', async () => {
    const diff = await changes();
    const changed = blob(1);
    changed[1000] = (changed[1000] ?? 0) ^ 1;
    await writeFile(join(repo, 'edit.bin'), changed);
    const before = status();
    const report = await runEdit({ kind: 'patch', text: diff }, { root: repo, snapshot: false });
    expect(report.ok).toBe(false);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0]).toMatchObject({ code: 'STALE', path: 'edit.bin' });
    expect(report.errors[0]!.message).toMatch(
      /not the file the binary patch was made from: it is blob [0-9a-f]{12}/,
    );
    expect(status()).toBe(before);
    expect(await readFile(join(repo, 'edit.bin'))).toEqual(changed);
  });

  it('without an index line, the reverse hunk tells the wrong base (STALE)', async () => {
    const diff = (await changes()).replace(/^index .*\n/gm, '');
    await writeFile(join(repo, 'gone.bin'), blob(9, 50));
    const before = status();
    const report = await runEdit({ kind: 'patch', text: diff }, { root: repo, snapshot: false });
    expect(report.errors.map((e) => [e.code, e.path])).toEqual([['STALE', 'gone.bin']]);
    expect(report.errors[0]!.message).toMatch(/reverse hunk does not give the file's bytes back/);
    expect(status()).toBe(before);
  });

  it("a result that is not the index line's new blob is a corrupt patch, never applied", async () => {
    const diff = await changes();
    const tampered = diff.replace(
      /^(index [0-9a-f]+\.\.)([0-9a-f])/m,
      (_, head, c) => head + (c === '0' ? '1' : '0'),
    );
    const before = status();
    const report = await runEdit({ kind: 'patch', text: tampered }, { root: repo, snapshot: false });
    expect(report.ok).toBe(false);
    expect(report.errors[0]).toMatchObject({ code: 'PARSE_ERROR' });
    expect(report.errors[0]!.message).toMatch(/corrupt: its result is not blob/);
    expect(status()).toBe(before);
  });

  it('a created file that exists with other content is STALE; with the same content the patch changes nothing', async () => {
    const diff = await changes();
    const added = diff.slice(diff.indexOf('diff --git a/new.bin'));
    await writeFile(join(repo, 'new.bin'), blob(6, 64));
    const stale = await runEdit({ kind: 'patch', text: added }, { root: repo, snapshot: false });
    expect(stale.errors.map((e) => e.code)).toEqual(['STALE']);
    expect(await readFile(join(repo, 'new.bin'))).toEqual(blob(6, 64));
    await writeFile(join(repo, 'new.bin'), blob(5, 64));
    const again = await runEdit({ kind: 'patch', text: added }, { root: repo, snapshot: false });
    expect(again.errors.map((e) => e.code)).toEqual(['EMPTY_PATCH']);
  });

  it('keeps the path policy: a binary patch outside the root, into .git, the config or through a link out is refused', async () => {
    const diff = await changes();
    const outside = await mkdtemp(join(tmpdir(), 'patchsmith-outside-'));
    await symlink(outside, join(repo, 'link'));
    git('add', 'link');
    git('commit', '-qm', 'link');
    const added = diff.slice(diff.indexOf('diff --git a/new.bin'));
    for (const [name, code] of [
      ['../outside.bin', 'PATH_OUTSIDE_ROOT'],
      ['.git/hooks/pre-commit', 'PATH_INVALID'],
      ['.patchsmith.json', 'DENIED'],
      ['link/through.bin', 'PATH_OUTSIDE_ROOT'],
    ] as const) {
      const text = added.replaceAll('new.bin', name);
      const report = await runEdit({ kind: 'patch', text }, { root: repo, snapshot: false });
      expect(report.ok).toBe(false);
      expect(report.errors[0]!.code, name).toBe(code);
    }
    expect(status()).toBe('');
    expect(await readdir(outside)).toEqual([]);
    await rm(outside, { recursive: true, force: true });
  });

  it('applies a copy with changes, leaving the source as it was', async () => {
    const copied = blob(1);
    copied.write('copy', 10);
    await writeFile(join(repo, 'copy.bin'), copied);
    git('add', '-A');
    git('commit', '-qm', 'copy');
    const diff = git('diff', '--binary', '-C', '--find-copies-harder', 'HEAD~1', 'HEAD');
    expect(diff).toMatch(/^copy from edit\.bin$/m);
    git('checkout', '-q', 'HEAD~1');
    const report = await runEdit({ kind: 'patch', text: diff }, { root: repo, snapshot: false });
    expect(report.errors).toEqual([]);
    expect(await readFile(join(repo, 'copy.bin'))).toEqual(copied);
    expect(await readFile(join(repo, 'edit.bin'))).toEqual(blob(1));
  });

  it('a dry run shows the binary change and writes nothing', async () => {
    const diff = await changes();
    const report = await runEdit(
      { kind: 'patch', text: diff },
      { root: repo, dryRun: true, snapshot: false },
    );
    expect(report.ok).toBe(true);
    expect(report.files.find((f) => f.path === 'edit.bin')?.diff).toMatch(
      /Binary files edit.bin and edit.bin differ/,
    );
    expect(status()).toBe('');
  });
});

import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-history-'));
  await writeFile(join(dir, 'a.txt'), 'a0\n');
  await writeFile(join(dir, 'b.txt'), 'b0\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ps = (args: string[], input?: string) => runBin(PATCHSMITH_BIN, args, { cwd: dir, input });
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
const read = (name: string) => readFile(join(dir, name), 'utf8');
const update = (path: string, from: string, to: string) =>
  `*** Begin Patch\n*** Update File: ${path}\n@@\n-${from}\n+${to}\n*** End Patch\n`;

async function initRepo() {
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '-m', 'init');
}

/** Applies a patch through the CLI and returns its snapshot id. */
function apply(patch: string): string {
  const r = ps(['apply', '--json'], patch);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout).snapshot;
}

describe('an undo history that never sticks (through the CLI)', () => {
  it('log shows states and files; undo passes over a stale snapshot, names it, and redo takes the undo back', async () => {
    await initRepo();
    const first = apply(update('a.txt', 'a0', 'a1'));
    const second = apply(update('b.txt', 'b0', 'b1'));
    await writeFile(join(dir, 'b.txt'), 'by hand\n');
    const log = ps(['log']);
    // `*` marks what a plain undo takes; the stale one says which file changed.
    const time = '\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z';
    expect(log.stdout).toMatch(
      new RegExp(
        `^  ${second}  stale    ${time}  patchsmith: update b\\.txt \\(changed since: b\\.txt\\)\n      M b\\.txt\n` +
          `\\* ${first}  applied  ${time}  patchsmith: update a\\.txt\n      M a\\.txt\n$`,
      ),
    );
    const list = ps(['undo', '--list', '--json']);
    expect(JSON.parse(list.stdout)).toMatchObject({
      next: first,
      snapshots: [{ id: second, state: 'stale' }, { id: first }],
    });

    const undo = ps(['undo']);
    expect(undo.status).toBe(0);
    expect(undo.stdout).toBe(
      `Skipped ${second} (files changed since its apply: b.txt).\nUndone ${first}; the files are back as they were before that apply.\n[M] a.txt (+1 -1)\n`,
    );
    expect(await read('a.txt')).toBe('a0\n');
    expect(await read('b.txt')).toBe('by hand\n');
    expect(ps(['log', '--json']).stdout).toContain('"state": "undone"');

    const stuck = ps(['undo']);
    expect(stuck.status).toBe(1);
    expect(stuck.stderr).toContain(`files changed since snapshot ${second} was applied: b.txt`);

    const redo = ps(['redo']);
    expect(redo.status, redo.stderr).toBe(0);
    expect(redo.stdout).toContain(`Redone ${first}`);
    expect(await read('a.txt')).toBe('a1\n');
    expect(ps(['redo', '--json'])).toMatchObject({ status: 1 });
    expect(JSON.parse(ps(['redo', '--json']).stdout)).toMatchObject({
      ok: false,
      errors: [{ code: 'NO_SNAPSHOT' }],
    });

    const forget = ps(['forget', second]);
    expect(forget).toMatchObject({ status: 0, stdout: `Forgot snapshot ${second}.\n` });
    expect(ps(['undo', '--quiet'])).toMatchObject({ status: 0, stdout: '' });
    expect(await read('a.txt')).toBe('a0\n');
    expect(git('status', '--porcelain')).toBe(' M b.txt\n');
  });

  it('no snapshot is NO_SNAPSHOT (not FILE_NOT_FOUND), for undo, undo ID, redo and forget', async () => {
    for (const args of [['undo'], ['undo', '20200101-000000-0000'], ['redo'], ['forget', 'nope']]) {
      const r = ps(args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toContain('NO_SNAPSHOT');
    }
    expect(ps(['log'])).toMatchObject({ status: 0, stdout: 'No snapshots.\n' });
    expect(ps(['undo', '--list'])).toMatchObject({ status: 0, stdout: 'Nothing to undo.\n' });
  });

  it('gc prunes the refs (objects left to git gc), needs a bound, and checks its values', async () => {
    await initRepo();
    const ids = ['a1', 'a2', 'a3'].map((to, i) => apply(update('a.txt', i === 0 ? 'a0' : `a${i}`, to)));
    expect(ps(['gc'])).toMatchObject({ status: 2 });
    expect(ps(['gc', '--older-than', '3x']).stderr).toContain('expected a number and a unit');
    expect(ps(['gc', '--older-than', '1d']).stdout).toBe('Removed 0 snapshot(s), kept 3.\n');
    expect(JSON.parse(ps(['gc', '--keep', '1', '--json']).stdout)).toEqual({
      ok: true,
      removed: [ids[1], ids[0]],
      kept: 1,
    });
    expect(git('for-each-ref', '--format=%(refname)', 'refs/patchsmith/')).toBe(
      `refs/patchsmith/snapshots/${ids[2]}\n`,
    );
  });

  it('recover says a live process holds the lock instead of "Nothing to recover"', async () => {
    await mkdir(join(dir, '.patchsmith'));
    const lock = {
      pid: process.pid,
      host: hostname(),
      token: 'ab'.repeat(12),
      time: new Date().toISOString(),
      start: null,
    };
    await writeFile(join(dir, '.patchsmith', 'lock'), JSON.stringify(lock));
    const held = ps(['recover']);
    expect(held.status).toBe(1);
    expect(held.stderr).toContain(`BUSY: the lock of this root is held by pid ${process.pid}`);
    expect(held.stdout).toBe('');
    await rm(join(dir, '.patchsmith', 'lock'));
    expect(ps(['recover'])).toMatchObject({ status: 0, stdout: 'Nothing to recover.\n' });
    expect(JSON.parse(ps(['recover', '--json']).stdout)).toEqual({ ok: true, recovered: false, paths: [] });
  });
});

import { spawnSync } from 'node:child_process';
import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Plan } from '@patchsmith/planner';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { withRootLock } from './lock.js';
import { recoverTransaction } from './recover-transaction.js';
import { faultyFs } from './test-support/faulty-fs.js';
import { beforeOf, bytes, makeRoot, materialize, removeRoot, type TreeSpec } from './test-support/tree.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await removeRoot(root);
});

const spec: TreeSpec = {
  files: {
    'one.txt': { bytes: bytes('one\n'), mode: 0o644 },
    'two.txt': { bytes: bytes('two\n'), mode: 0o644 },
  },
};
const edit = (path: string, text: string): Plan => ({
  files: [],
  writes: [{ path, before: beforeOf(spec, path), after: { bytes: bytes(text), mode: 0o644 } }],
});

async function setup(): Promise<string> {
  const root = await makeRoot();
  roots.push(root);
  await materialize(root, spec);
  return root;
}

const lockFile = (root: string) => join(root, '.git', 'patchsmith', 'lock');

/** A promise with its resolver, to hold a call at a gate until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

async function writeLock(root: string, info: object) {
  await mkdir(join(root, '.git', 'patchsmith'), { recursive: true });
  await writeFile(lockFile(root), JSON.stringify(info));
}

describe('one apply per root at a time', () => {
  it('a second apply waits for the first to finish: no interleaving', async () => {
    const root = await setup();
    const events: string[] = [];
    const held = gate();
    const secondTried = gate();
    const first = faultyFs({
      before: async (call, path) => {
        events.push(`A ${call} ${path}`);
        if (call === 'rename' && !path.includes('/.git/')) await held.opened;
      },
    });
    const second = faultyFs({
      before: async (call, path) => {
        events.push(`B ${call} ${path}`);
        if (call === 'open' && path === lockFile(root)) secondTried.open();
      },
    });
    const a = applyPlan(edit('one.txt', 'one, by A\n'), { root, fs: first.fs });
    // A is now parked at its first rename; B must find the lock taken.
    while (!events.some((e) => e.startsWith('A rename'))) await new Promise((r) => setTimeout(r, 5));
    const b = applyPlan(edit('two.txt', 'two, by B\n'), { root, fs: second.fs });
    await secondTried.opened;
    held.open();
    expect(await a).toEqual({ ok: true });
    expect(await b).toEqual({ ok: true });
    const treeCalls = events.filter((e) => !e.includes('/.git/'));
    const lastOfA = treeCalls.map((e) => e.startsWith('A')).lastIndexOf(true);
    const firstOfB = treeCalls.findIndex((e) => e.startsWith('B'));
    expect(lastOfA).toBeGreaterThanOrEqual(0);
    expect(firstOfB).toBeGreaterThan(lastOfA);
    expect(await readFile(join(root, 'one.txt'), 'utf8')).toBe('one, by A\n');
    expect(await readFile(join(root, 'two.txt'), 'utf8')).toBe('two, by B\n');
  });

  it('with a short timeout the second apply gets BUSY and writes nothing', async () => {
    const root = await setup();
    const held = gate();
    let parked = false;
    const first = faultyFs({
      before: async (call, path) => {
        if (call === 'rename' && !path.includes('/.git/')) {
          parked = true;
          await held.opened;
        }
      },
    });
    const a = applyPlan(edit('one.txt', 'one, by A\n'), { root, fs: first.fs });
    while (!parked) await new Promise((r) => setTimeout(r, 5));
    const b = await applyPlan(edit('two.txt', 'two, by B\n'), { root, lockTimeoutMs: 60 });
    held.open();
    expect(b.ok).toBe(false);
    if (!b.ok) expect(b.errors.map((e) => e.code)).toEqual(['BUSY']);
    expect(await a).toEqual({ ok: true });
    expect(await readFile(join(root, 'two.txt'), 'utf8')).toBe('two\n');
  });

  it('breaks the lock of a process that died', async () => {
    const root = await setup();
    const dead = spawnSync(process.execPath, ['-e', '']);
    expect(dead.pid).toBeGreaterThan(0);
    await writeLock(root, {
      pid: dead.pid,
      host: hostname(),
      token: 'dead'.padEnd(24, '0'),
      time: new Date().toISOString(),
    });
    expect(await applyPlan(edit('one.txt', 'after a dead lock\n'), { root, lockTimeoutMs: 50 })).toEqual({
      ok: true,
    });
    expect(await readFile(join(root, 'one.txt'), 'utf8')).toBe('after a dead lock\n');
  });

  it('waits for the lock of a live process, then BUSY', async () => {
    const root = await setup();
    await writeLock(root, {
      pid: process.ppid,
      host: hostname(),
      token: 'a'.repeat(24),
      time: new Date().toISOString(),
    });
    const result = await applyPlan(edit('one.txt', 'x\n'), { root, lockTimeoutMs: 50 });
    expect(result).toMatchObject({ ok: false, errors: [{ code: 'BUSY' }] });
    expect(JSON.parse(await readFile(lockFile(root), 'utf8')).token).toBe('a'.repeat(24));
  });

  it('an unreadable lock file is waited on while fresh (being written), broken once old', async () => {
    const root = await setup();
    await writeLock(root, {});
    await writeFile(lockFile(root), '');
    expect(await applyPlan(edit('one.txt', 'x\n'), { root, lockTimeoutMs: 50 })).toMatchObject({
      ok: false,
      errors: [{ code: 'BUSY' }],
    });
    const old = new Date(Date.now() - 60_000);
    await utimes(lockFile(root), old, old);
    expect(await applyPlan(edit('one.txt', 'x\n'), { root, lockTimeoutMs: 50 })).toEqual({ ok: true });
  });

  it('withRootLock keeps other applies out and lets its holder apply and recover', async () => {
    const root = await setup();
    const outcome = await withRootLock(root, async (lock) => {
      const other = await applyPlan(edit('two.txt', 'two\nmore\n'), { root, lockTimeoutMs: 40 });
      expect(other).toMatchObject({ ok: false, errors: [{ code: 'BUSY' }] });
      expect(await recoverTransaction(root, { lock })).toEqual({ recovered: false, paths: [] });
      return applyPlan(edit('one.txt', 'held\n'), { root, lock });
    });
    expect(outcome).toEqual({ ok: true });
    expect(await readFile(join(root, 'one.txt'), 'utf8')).toBe('held\n');
    await expect(readFile(lockFile(root))).rejects.toThrow(/ENOENT/);
  });

  it('withRootLock throws BUSY when the lock cannot be had in time', async () => {
    const root = await setup();
    await writeLock(root, {
      pid: process.ppid,
      host: hostname(),
      token: 'a'.repeat(24),
      time: new Date().toISOString(),
    });
    await expect(withRootLock(root, async () => 1, { lockTimeoutMs: 30 })).rejects.toMatchObject({
      code: 'BUSY',
    });
  });
});

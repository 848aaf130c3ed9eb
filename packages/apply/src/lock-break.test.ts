import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { openRoot } from './context.js';
import { acquireLock, liveLockHolder, releaseLock, withRootLock } from './lock.js';
import { processStart } from './process-start.js';
import { faultyFs } from './test-support/faulty-fs.js';
import { bytes, makeRoot, removeRoot } from './test-support/tree.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await removeRoot(root);
});

async function setup(): Promise<string> {
  const root = await makeRoot();
  roots.push(root);
  await fs.writeFile(join(root, 'a.txt'), 'a\n');
  return root;
}

const stateDir = (root: string) => join(root, '.git', 'patchsmith');
const lockFile = (root: string) => join(stateDir(root), 'lock');
const token = (c: string) => c.repeat(24);
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;
const plan = {
  files: [],
  writes: [
    {
      path: 'a.txt',
      before: { hash: createHash('sha256').update('a\n').digest('hex'), mode: 0o644 },
      after: { bytes: bytes('a2\n'), mode: 0o644 },
    },
  ],
};

async function writeLock(root: string, content: object | string) {
  await fs.mkdir(stateDir(root), { recursive: true });
  await fs.writeFile(lockFile(root), typeof content === 'string' ? content : JSON.stringify(content));
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

describe('breaking a stale lock is race-free', () => {
  it('many concurrent waiters on one stale lock: at most one holder at a time, and all get their turn', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: 3 }), { minLength: 6, maxLength: 10 }), async (delays) => {
        const root = await setup();
        await writeLock(root, {
          pid: deadPid(),
          host: hostname(),
          token: token('d'),
          time: new Date().toISOString(),
          start: null,
        });
        const events: string[] = [];
        const ctx = await openRoot(root, faultyFs().fs);
        await Promise.all(
          delays.map(async (delay, index) => {
            // Each waiter's mutating calls are delayed differently, to shuffle how the breaks interleave.
            const jittered = faultyFs({ before: () => sleep(delay) });
            const lock = await acquireLock({ ...ctx, fs: jittered.fs }, 20_000);
            events.push(`enter ${index}`);
            await sleep(1);
            events.push(`leave ${index}`);
            await releaseLock(jittered.fs, lock);
          }),
        );
        for (let at = 0; at < events.length; at += 2) {
          expect(events[at]!.replace('enter', 'leave')).toBe(events[at + 1]);
        }
        expect(events.filter((e) => e.startsWith('enter'))).toHaveLength(delays.length);
        // The markers of the break are gone with the lock.
        await expect(fs.readdir(stateDir(root))).rejects.toThrow(/ENOENT/);
        await removeRoot(root);
        roots.splice(roots.indexOf(root), 1);
      }),
      { numRuns: 8 },
    );
  });

  it('a waiter that judged an old generation stale leaves the new holder alone', async () => {
    const root = await setup();
    await writeLock(root, {
      pid: deadPid(),
      host: hostname(),
      token: token('d'),
      time: new Date().toISOString(),
      start: null,
    });
    const first = await withRootLock(root, async () => {
      // A late waiter arrives while the lock is held anew: it must wait (BUSY), not break it.
      const late = await applyPlan(plan, { root, lockTimeoutMs: 60 });
      expect(late).toMatchObject({ ok: false, errors: [{ code: 'BUSY' }] });
      return 'held';
    });
    expect(first).toBe('held');
  });
});

describe('the lock names its holder, and a reused pid is not the holder', () => {
  it('a live pid whose start time differs from the lock is taken for gone (pid reuse)', async () => {
    const root = await setup();
    await writeLock(root, {
      pid: process.ppid,
      host: hostname(),
      token: token('e'),
      time: '2020-01-01T00:00:00.000Z',
      start: 'linux:1:1',
    });
    expect(await applyPlan(plan, { root, lockTimeoutMs: 50 })).toEqual({ ok: true });
  });

  it.runIf(process.platform === 'linux')(
    'a live pid with its own start time holds: BUSY names pid, host and since when, and how to clear',
    async () => {
      const root = await setup();
      const start = await processStart(process.ppid);
      expect(start).toMatch(/^linux:\d+:\d+$/);
      await writeLock(root, {
        pid: process.ppid,
        host: hostname(),
        token: token('f'),
        time: '2026-01-02T03:04:05.000Z',
        start,
      });
      const result = await applyPlan(plan, { root, lockTimeoutMs: 50 });
      expect(result).toMatchObject({ ok: false, errors: [{ code: 'BUSY', path: '.git/patchsmith/lock' }] });
      if (!result.ok) {
        expect(result.errors[0]!.message).toBe(
          `the lock of this root is held by pid ${process.ppid} on host ${hostname()}, since 2026-01-02T03:04:05.000Z; ` +
            'if no patchsmith is running for this root, remove .git/patchsmith/lock',
        );
      }
    },
  );

  it('the lock records pid, host, start and time', async () => {
    const root = await setup();
    await withRootLock(root, async () => {
      const info = JSON.parse(await fs.readFile(lockFile(root), 'utf8'));
      expect(info).toMatchObject({
        pid: process.pid,
        host: hostname(),
        start: await processStart(process.pid),
      });
      expect(Object.keys(info).sort()).toEqual(['host', 'pid', 'start', 'time', 'token']);
    });
  });

  it('a lock of another host is never broken, and BUSY says so', async () => {
    const root = await setup();
    await writeLock(root, {
      pid: deadPid(),
      host: 'elsewhere.example',
      token: token('c'),
      time: new Date().toISOString(),
      start: null,
    });
    const result = await applyPlan(plan, { root, lockTimeoutMs: 50 });
    expect(result).toMatchObject({ ok: false, errors: [{ code: 'BUSY' }] });
    if (!result.ok)
      expect(result.errors[0]!.message).toMatch(
        /host elsewhere\.example \(another host: patchsmith cannot tell/,
      );
  });
});

describe('a lock file is input: hostile content never crashes and never deletes outside', () => {
  const old = new Date(Date.now() - 60_000);
  const hostile: [string, (root: string, outside: string) => Promise<void>][] = [
    [
      'a token that climbs',
      (root) =>
        writeLock(root, {
          pid: deadPid(),
          host: hostname(),
          token: '../../../outside/x',
          time: new Date().toISOString(),
        }),
    ],
    [
      'an extra field',
      (root) => writeLock(root, { pid: deadPid(), host: hostname(), token: token('b'), time: 'x', rm: '/' }),
    ],
    [
      'a pid that is a string',
      (root) =>
        writeLock(root, { pid: '1', host: hostname(), token: token('b'), time: new Date().toISOString() }),
    ],
    [
      'a huge pid',
      (root) =>
        writeLock(root, { pid: 1e300, host: hostname(), token: token('b'), time: new Date().toISOString() }),
    ],
    ['null', (root) => writeLock(root, 'null')],
    ['not JSON', (root) => writeLock(root, '{"pid":')],
    ['empty', (root) => writeLock(root, '')],
    ['huge', (root) => writeLock(root, 'x'.repeat(100_000))],
    [
      'a symlink to a file outside',
      async (root, outside) => {
        await fs.mkdir(stateDir(root), { recursive: true });
        await fs.symlink(join(outside, 'victim.txt'), lockFile(root));
      },
    ],
    [
      'a FIFO',
      async (root) => {
        await fs.mkdir(stateDir(root), { recursive: true });
        expect(spawnSync('mkfifo', [lockFile(root)]).status).toBe(0);
      },
    ],
  ];

  it.each(hostile)(
    '%s: fresh it is waited on (BUSY says what it is), old it is broken; outside stays as it was',
    async (_, make) => {
      const root = await setup();
      const outside = await makeRoot({ git: false });
      roots.push(outside);
      await fs.writeFile(join(outside, 'victim.txt'), 'keep\n');
      await make(root, outside);
      const busy = await applyPlan(plan, { root, lockTimeoutMs: 50 });
      expect(busy).toMatchObject({ ok: false, errors: [{ code: 'BUSY' }] });
      if (!busy.ok)
        expect(busy.errors[0]!.message).toMatch(
          /is not a patchsmith lock \(it is taken as stale 2 s after its last change\)/,
        );
      await fs.lutimes(lockFile(root), old, old);
      expect(await applyPlan(plan, { root, lockTimeoutMs: 50 })).toEqual({ ok: true });
      expect(await fs.readFile(join(outside, 'victim.txt'), 'utf8')).toBe('keep\n');
      expect(await fs.readdir(outside)).toEqual(['victim.txt']);
      await expect(fs.readdir(stateDir(root))).rejects.toThrow(/ENOENT/);
    },
  );

  it('a folder where the lock goes is STATE_INVALID, and is left alone', async () => {
    const root = await setup();
    await fs.mkdir(join(lockFile(root), 'inner'), { recursive: true });
    expect(await applyPlan(plan, { root, lockTimeoutMs: 50 })).toMatchObject({
      ok: false,
      errors: [{ code: 'STATE_INVALID' }],
    });
    expect(await fs.readdir(lockFile(root))).toEqual(['inner']);
  });
});

describe('recover after an apply killed while it made its lock', () => {
  it('an empty lock file just made is waited out (it ages into stale), not called busy', async () => {
    const root = await setup();
    // What a SIGKILL between `open(wx)` and the write leaves: an empty lock, changed a moment ago.
    await writeLock(root, '');
    expect(await liveLockHolder(root)).toBeNull();
  });

  it('a lock file that keeps changing and never parses is BUSY after the wait, naming it', async () => {
    const root = await setup();
    await writeLock(root, '');
    const writer = setInterval(() => void fs.writeFile(lockFile(root), 'x'.repeat(Date.now() % 7)), 100);
    try {
      const busy = await liveLockHolder(root);
      expect(busy).toMatchObject({ code: 'BUSY' });
      expect(busy?.message).toMatch(/is not a patchsmith lock/);
    } finally {
      clearInterval(writer);
    }
  });
});

/**
 * What applying one more file costs in look-ups: the transaction's realpath / stat / lstat calls
 * per written file, counted through the injected fs (the folder checks around each step included).
 */
import { promises as nodeFs } from 'node:fs';
import type { EditScript } from '@patchsmith/core';
import { planEdits, touchedPaths } from '@patchsmith/planner';
import { afterEach, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import type { TransactionFs } from './fs.js';
import { withRootLock } from './lock.js';
import { readFiles } from './read-files.js';
import { lineReplacements } from './test-support/line-replacements.js';
import { bytes, makeRoot, materialize, removeRoot } from './test-support/tree.js';

const LOOKUPS = ['realpath', 'stat', 'lstat'] as const;
type Lookups = Record<(typeof LOOKUPS)[number], number>;

/** node's fs, counting the look-up calls made through it. */
function countingLookups(): { fs: TransactionFs; counts: Lookups } {
  const counts: Lookups = { realpath: 0, stat: 0, lstat: 0 };
  const fs = { ...nodeFs } as unknown as Record<string, unknown>;
  for (const name of LOOKUPS) {
    const real = nodeFs[name] as (path: string) => Promise<unknown>;
    fs[name] = (path: string) => {
      counts[name]++;
      return real(path);
    };
  }
  return { fs: fs as unknown as TransactionFs, counts };
}

/** One line of each of `n` files in one folder replaced. */
const updates = (paths: readonly string[]): EditScript =>
  lineReplacements(
    paths,
    () => 'old',
    () => 'new',
  );

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await removeRoot(root);
});

/** The look-ups `applyPlan` makes for `n` updated files. */
async function lookupsFor(n: number): Promise<Lookups> {
  const root = await makeRoot({ git: false });
  roots.push(root);
  const paths = Array.from({ length: n }, (_, i) => `src/f${i}.txt`);
  const files = Object.fromEntries(paths.map((path) => [path, { bytes: bytes('old\n'), mode: 0o644 }]));
  await materialize(root, { files });
  const script = updates(paths);
  const planned = planEdits(script, await readFiles(root, touchedPaths(script, root)), { root });
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors));
  const counting = countingLookups();
  expect(await applyPlan(planned.plan, { root, fs: counting.fs })).toEqual({ ok: true });
  return counting.counts;
}

it('looks up each written file and its folder a bounded number of times', async () => {
  const one = await lookupsFor(1);
  const nine = await lookupsFor(9);
  const perFile = Object.fromEntries(LOOKUPS.map((name) => [name, (nine[name] - one[name]) / 8]));
  // The folder is checked before staging, before backing up and around the rename (a realpath
  // and a stat each): the check before each step tells whether the step before it went through a
  // swap, and the one after the rename whether the last did. The entry's identity after staging,
  // backing up and around the rename (lstat); the check under the lock stats and resolves the
  // file. The staging and the rename go through the folder just checked without the guard's own
  // realpath of it. (Before: realpath 10, then 7 with a check after staging and after backing up.)
  expect(perFile).toEqual({ realpath: 5, stat: 5, lstat: 5 });
});

/** realpath calls of the root itself made through `fs`, counted into `seen`. */
function countingRootRealpath(root: string, seen: { root: number }): TransactionFs {
  return {
    ...nodeFs,
    realpath: (path: string) => {
      if (path === root) seen.root++;
      return nodeFs.realpath(path);
    },
  } as unknown as TransactionFs;
}

it('an apply under a held lock works in the context the lock was taken in: the root is resolved once less', async () => {
  const root = await makeRoot({ git: false });
  roots.push(root);
  await materialize(root, { files: { 'a.txt': { bytes: bytes('old\n'), mode: 0o644 } } });
  const script = updates(['a.txt']);
  const planOf = async () => {
    const planned = planEdits(script, await readFiles(root, touchedPaths(script, root)), { root });
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors));
    return planned.plan;
  };
  const alone = { root: 0 };
  const fsAlone = countingRootRealpath(root, alone);
  expect(await applyPlan(await planOf(), { root, fs: fsAlone })).toEqual({ ok: true });

  await materialize(root, { files: { 'a.txt': { bytes: bytes('old\n'), mode: 0o644 } } });
  const locked = { root: 0 };
  const fsLocked = countingRootRealpath(root, locked);
  const plan = await planOf();
  const result = await withRootLock(root, (lock) => applyPlan(plan, { root, fs: fsLocked, lock }), {
    fs: fsLocked,
  });
  expect(result).toEqual({ ok: true });
  // withRootLock resolves the root once to take the lock; the apply under it does not again.
  expect(locked.root).toBe(alone.root);
});

it('a lock taken through another fs is not taken for its context: the apply resolves the root itself', async () => {
  const root = await makeRoot({ git: false });
  roots.push(root);
  await materialize(root, { files: { 'a.txt': { bytes: bytes('old\n'), mode: 0o644 } } });
  const script = updates(['a.txt']);
  const planned = planEdits(script, await readFiles(root, touchedPaths(script, root)), { root });
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors));
  const seen = { root: 0 };
  const fs = countingRootRealpath(root, seen);
  const result = await withRootLock(root, (lock) => applyPlan(planned.plan, { root, fs, lock }));
  expect(result).toEqual({ ok: true });
  expect(seen.root).toBeGreaterThan(0);
});

import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EditScript } from '@patchsmith/core';
import { planEdits, touchedPaths } from '@patchsmith/planner';
import { createSnapshot } from '@patchsmith/snapshot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { readFiles } from './read-files.js';
import { type CountingFs, countingFs } from './test-support/counting-fs.js';
import { lineReplacements } from './test-support/line-replacements.js';
import { bytes, makeRoot, materialize, removeRoot } from './test-support/tree.js';

/** The text of every file content hashed in this process (core's `hashBytes`, which every package uses). */
const hashed: string[] = vi.hoisted(() => []);
vi.mock('@patchsmith/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@patchsmith/core')>();
  const hashBytes = (bytes: Uint8Array) => {
    hashed.push(Buffer.from(bytes).toString());
    return core.hashBytes(bytes);
  };
  return { ...core, hashBytes };
});

const PATHS = ['a.txt', 'src/b.txt', 'src/c.txt'];
const oldText = (path: string) => `old ${path}\n`;
const newText = (path: string) => `new ${path}\n`;

// A 3-file patch: one line of each file replaced.
const script: EditScript = lineReplacements(
  PATHS,
  (path) => oldText(path).trimEnd(),
  (path) => newText(path).trimEnd(),
);

let root: string;
let counting: CountingFs;
beforeEach(async () => {
  root = await makeRoot({ git: false });
  execFileSync('git', ['init', '-q'], { cwd: root });
  await materialize(root, {
    files: Object.fromEntries(PATHS.map((path) => [path, { bytes: bytes(oldText(path)), mode: 0o644 }])),
  });
  counting = countingFs();
  hashed.length = 0;
});
afterEach(async () => removeRoot(root));

/** What one file went through: the looks at it, and how often its old and its new bytes were hashed. */
const costOf = (path: string) => ({
  ...counting.looksAt(join(root, path)),
  oldHashed: hashed.filter((text) => text === oldText(path)).length,
  newHashed: hashed.filter((text) => text === newText(path)).length,
});

async function plan() {
  const files = await readFiles(root, touchedPaths(script, root), { fs: counting.fs });
  const planned = planEdits(script, files, { root });
  if (!planned.ok) throw new Error(`expected a plan: ${JSON.stringify(planned.errors)}`);
  return planned.plan;
}

async function expectApplied() {
  for (const path of PATHS) expect(await readFile(join(root, path), 'utf8')).toBe(newText(path));
}

describe('from patch to disk, each file is read once before the plan, and hashed only for a snapshot', () => {
  it('and once more under the lock, with the snapshot taken from the checked plan', async () => {
    const snapshots: string[] = [];
    const result = await applyPlan(await plan(), {
      root,
      fs: counting.fs,
      beforeFirstWrite: async (checked) => {
        const fs = counting.snapshotFs;
        snapshots.push((await createSnapshot({ root, plan: checked, fs, checked: true })).id);
      },
    });
    expect(result).toEqual({ ok: true });
    await expectApplied();
    expect(snapshots).toHaveLength(1);
    // Per file: readFiles looks once (one lstat, one read); the check under the lock once (its
    // own lstat, one read, compared byte for byte with the plan's); the rename is confirmed by
    // one lstat of the target. The snapshot reads nothing of the tree: it hashes the old bytes
    // (the plan's `before.hash`, asked for the first time) and the new ones for its manifest,
    // and its own stored copy of the old ones (not the file) to verify it.
    // (Before issue 13: readFile 4, stat 1, lstat 6, old bytes hashed 5 times, new ones 3.)
    for (const path of PATHS) {
      expect(costOf(path)).toEqual({ readFile: 2, stat: 0, lstat: 3, oldHashed: 2, newHashed: 1 });
    }
  });

  it('without a snapshot, one read each side of the plan, and nothing hashed', async () => {
    expect(await applyPlan(await plan(), { root, fs: counting.fs })).toEqual({ ok: true });
    await expectApplied();
    for (const path of PATHS) {
      expect(costOf(path)).toEqual({ readFile: 2, stat: 0, lstat: 3, oldHashed: 0, newHashed: 0 });
    }
  });
});

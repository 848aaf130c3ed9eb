/**
 * The order of a many-file transaction: every file staged before the first fsync, every staged
 * file fsync'd before the first rename, every folder the renames and removals changed fsync'd
 * once, after the last of them and before the commit point. And the before-or-after guarantee at
 * the steps that order brought: a fault (or a kill) after staging before the fsyncs, after some
 * renames, during the folders' fsyncs.
 */
import { join } from 'node:path';
import type { Plan } from '@patchsmith/planner';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { recoverTransaction } from './recover-transaction.js';
import { faultyFs } from './test-support/faulty-fs.js';
import {
  beforeOf,
  bytes,
  makeRoot,
  materialize,
  removeRoot,
  shapeOf,
  type TreeShape,
  type TreeSpec,
} from './test-support/tree.js';

const FILES = 12;
const spec: TreeSpec = {
  files: {
    ...Object.fromEntries(
      Array.from({ length: FILES }, (_, i) => [
        `d${i % 3}/f${i}.txt`,
        { bytes: bytes(`old ${i}\n`), mode: 0o644 },
      ]),
    ),
    'gone/only.txt': { bytes: bytes('the only file of its folder\n'), mode: 0o644 },
  },
};
const plan: Plan = {
  files: [],
  writes: [
    ...Array.from({ length: FILES }, (_, i) => {
      const path = `d${i % 3}/f${i}.txt`;
      return { path, before: beforeOf(spec, path), after: { bytes: bytes(`new ${i}\n`), mode: 0o644 } };
    }),
    { path: 'fresh/sub/new.txt', before: null, after: { bytes: bytes('new\n'), mode: 0o644 } },
    { path: 'gone/only.txt', before: beforeOf(spec, 'gone/only.txt'), after: null },
  ],
};

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await removeRoot(root);
});

async function freshRoot(): Promise<string> {
  const root = await makeRoot();
  roots.push(root);
  await materialize(root, spec);
  return root;
}

const journalOf = (root: string) => join(root, '.git', 'patchsmith', 'txn', 'journal.json');
// A call of the log (`call path`, a rename `rename from -> to`).
const isTempFsync = (entry: string) => entry.startsWith('fsync ') && entry.endsWith('.patchsmith-tmp');
const isStagedWrite = (entry: string) => entry.startsWith('write ') && entry.endsWith('.patchsmith-tmp');
const isRenameIntoTree = (entry: string) => /^rename .*\.patchsmith-tmp -> /.test(entry);

/** The mutating calls of a successful apply, in order, and the shapes before and after. */
async function cleanRun(): Promise<{ log: string[]; before: TreeShape; after: TreeShape; root: string }> {
  const root = await freshRoot();
  const before = await shapeOf(root);
  const clean = faultyFs();
  expect(await applyPlan(plan, { root, fs: clean.fs })).toEqual({ ok: true });
  return { log: clean.log, before, after: await shapeOf(root), root };
}

describe('a many-file transaction', () => {
  it('stages everything, then fsyncs it, then renames, then fsyncs each changed folder once, then commits', async () => {
    const { log, root } = await cleanRun();
    const last = (test: (entry: string) => boolean) => log.findLastIndex(test);
    const first = (test: (entry: string) => boolean) => log.findIndex(test);
    expect(log.filter(isStagedWrite)).toHaveLength(FILES + 1);
    expect(log.filter(isTempFsync)).toHaveLength(FILES + 1);
    expect(last(isStagedWrite)).toBeLessThan(first(isTempFsync));
    expect(last(isTempFsync)).toBeLessThan(first(isRenameIntoTree));
    const commit = log.indexOf(`unlink ${journalOf(root)}`);
    const folderSyncs = log
      .slice(last(isRenameIntoTree) + 1, commit)
      .filter((entry) => entry.startsWith('fsync '))
      .map((entry) => entry.slice('fsync '.length));
    // The three folders of updates, the new folders and their parent (the root), the emptied
    // folder's parent: each once.
    expect(folderSyncs.sort()).toEqual(
      [
        root,
        join(root, 'd0'),
        join(root, 'd1'),
        join(root, 'd2'),
        join(root, 'fresh'),
        join(root, 'fresh/sub'),
      ].sort(),
    );
  });

  /** The index (1-based, as `failAt` counts) of the first mutating call of the log that passes `test`. */
  const callOf = (log: string[], test: (entry: string) => boolean, nth = 1) => {
    const indexes = log.flatMap((entry, i) => (test(entry) ? [i + 1] : []));
    return indexes[nth - 1]!;
  };

  /** The second of the folders' fsyncs: after the last rename of the transaction (a delete's included). */
  const folderSyncCall = (log: string[]) => {
    const lastRename = log.findLastIndex((entry) => entry.startsWith('rename '));
    return lastRename + 1 + callOf(log.slice(lastRename + 1), (entry) => entry.startsWith('fsync '), 2);
  };

  const steps: [string, (log: string[]) => number][] = [
    ['after staging, before the first fsync', (log) => callOf(log, isTempFsync)],
    ['after some renames', (log) => callOf(log, isRenameIntoTree, 5)],
    ['during the folders’ fsyncs', folderSyncCall],
  ];

  for (const [when, at] of steps) {
    it(`a fault ${when} rolls back to the before state`, async () => {
      const { log, before } = await cleanRun();
      const root = await freshRoot();
      const faulty = faultyFs({ failAt: at(log) });
      const result = await applyPlan(plan, { root, fs: faulty.fs });
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).toMatch(/injected failure.*rolled back/);
      expect(await shapeOf(root)).toEqual(before);
    });

    it(`a kill ${when} is recovered to the before state`, async () => {
      const { log, before } = await cleanRun();
      const root = await freshRoot();
      const killed = faultyFs({ failAt: at(log), kill: true });
      await applyPlan(plan, { root, fs: killed.fs }).catch(() => {});
      expect(killed.killed()).toBe(true);
      expect((await recoverTransaction(root)).recovered).toBe(true);
      expect(await shapeOf(root)).toEqual(before);
    });
  }

  it('the steps faulted are the ones named', async () => {
    const { log, root } = await cleanRun();
    const [staged, renamed, folder] = steps.map(([, at]) => log[at(log) - 1]!);
    expect(staged).toMatch(/^fsync .*\.patchsmith-tmp$/);
    expect(renamed).toMatch(/^rename .*\.patchsmith-tmp -> /);
    expect(folder).toMatch(/^fsync /);
    expect(folder).not.toMatch(/\.patchsmith-tmp$|txn$/);
    expect(log.indexOf(`unlink ${journalOf(root)}`)).toBeGreaterThan(folderSyncCall(log));
  });
});

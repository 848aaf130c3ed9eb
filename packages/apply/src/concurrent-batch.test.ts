import { readdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { IO_CONCURRENCY } from '@patchsmith/core';
import type { Plan, PlannedWrite } from '@patchsmith/planner';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { heldFs } from './test-support/held-fs.js';
import {
  beforeOf,
  bytes,
  makeRoot,
  materialize,
  removeRoot,
  shapeOf,
  type TreeSpec,
} from './test-support/tree.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await removeRoot(root);
});

const UPDATES = 24;
const DELETES = 8;
const ADDS = 8;

/** Many files in a few folders: updates, deletes (one folder emptied), adds into a new folder. */
const spec: TreeSpec = { files: {}, dirs: ['kept/empty'] };
for (let i = 0; i < UPDATES; i++)
  spec.files[`d/file-${i}.txt`] = { bytes: bytes(`file ${i}\n`), mode: 0o644 };
for (let i = 0; i < DELETES; i++) spec.files[`g/h/gone-${i}`] = { bytes: bytes(`gone ${i}\n`), mode: 0o600 };
spec.files['d/mode.sh'] = { bytes: bytes('#!/bin/sh\n'), mode: 0o644 };

const writes: PlannedWrite[] = [
  ...Array.from({ length: UPDATES }, (_, i) => ({
    path: `d/file-${i}.txt`,
    before: beforeOf(spec, `d/file-${i}.txt`),
    after: { bytes: bytes(`file ${i}, edited\n`), mode: 0o644 },
  })),
  ...Array.from({ length: DELETES }, (_, i) => ({
    path: `g/h/gone-${i}`,
    before: beforeOf(spec, `g/h/gone-${i}`),
    after: null,
  })),
  ...Array.from({ length: ADDS }, (_, i) => ({
    path: `n/m/new-${i}.txt`,
    before: null,
    after: { bytes: bytes(`new ${i}\n`), mode: 0o755 },
  })),
  {
    path: 'd/mode.sh',
    before: beforeOf(spec, 'd/mode.sh'),
    after: { bytes: bytes('#!/bin/sh\n'), mode: 0o755 },
  },
];
const plan: Plan = { files: [], writes };

// A staged file beside its target.
const isTemp = (path: string) => path.includes('.patchsmith-tmp');

/** Every name in the tree (private state included) that looks like a staged or backup file. */
async function leftovers(root: string): Promise<string[]> {
  const names = await readdir(root, { recursive: true });
  return names.filter((name) => /patchsmith-tmp|backup-|journal|\.partial/.test(name));
}

describe('a failure in the middle of a concurrent batch', () => {
  const HOLD = 6;
  it.each([
    ['staging writes', (call: string, path: string) => call === 'write' && isTemp(path)],
    ['the fsyncs of staged files', (call: string, path: string) => call === 'fsync' && isTemp(path)],
    ['backups', (call: string) => call === 'link'],
    [
      'renames into place',
      (call: string, path: string) => call === 'rename' && isTemp(path.split(' -> ')[0]!),
    ],
    // A delete takes the file aside into the transaction folder first, then unlinks it there.
    [
      'deletes',
      (call: string, path: string) =>
        call === 'rename' && basename(path.split(' -> ')[0]!).startsWith('gone-'),
    ],
  ])(
    '%s: the rest of the batch settles first, then the rollback restores every byte, mode and folder',
    async (_name, pick) => {
      expect(IO_CONCURRENCY).toBeGreaterThan(HOLD);
      const root = await makeRoot();
      roots.push(root);
      await materialize(root, spec);
      const before = await shapeOf(root);
      const held = heldFs(pick, HOLD);

      const result = await applyPlan(plan, { root, fs: held.fs });

      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.errors).toHaveLength(1);
        expect(result.errors[0]).toMatchObject({ code: 'IO_ERROR' });
        expect(result.errors[0]!.message).toContain('injected failure');
        expect(result.errors[0]!.message).toContain('rolled back');
      }
      // Several calls of the batch were in flight when one failed, and they finished after it.
      expect(held.heldAtFailure()).toBe(HOLD - 1);
      expect(held.endedAfterFailure()).toBeGreaterThanOrEqual(HOLD - 1);
      // The rollback (whose first step removes staged files) began only once nothing was in flight.
      const rollbackStart = held.starts.find((start) => start.call === 'unlink' && isTemp(start.path));
      expect(rollbackStart).toBeDefined();
      expect(rollbackStart!.inFlight).toEqual([]);
      expect(await shapeOf(root)).toEqual(before);
      expect(await leftovers(root)).toEqual([]);
    },
  );
});

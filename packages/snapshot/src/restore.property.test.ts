import * as fs from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSnapshot } from './create-snapshot.js';
import { planUndo } from './plan-undo.js';
import {
  applyWrites,
  type DiskFile,
  initRepo,
  planFor,
  pruneEmptyDirs,
  readTree,
  tempDir,
  writeFile,
} from './test-support/fixtures.js';

// No path is a folder of another, so any before/after combination can exist on disk.
const UNIVERSE = ['a', 'b.bin', 'd/e', 'd/f', 'd/g/h', 'x/y/z/w', 'empty'] as const;

const fileArb: fc.Arbitrary<DiskFile> = fc.record({
  bytes: fc.uint8Array({ maxLength: 96 }),
  mode: fc.constantFrom(0o644, 0o755, 0o600, 0o700, 0o640, 0o750),
});
const stateArb = fc.option(fileArb, { nil: null });
const treeArb = fc.tuple(...UNIVERSE.map(() => stateArb));

describe('property: snapshot then undo restores the before tree', () => {
  it('for random before/after trees, in and out of a git repository', async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, treeArb, fc.boolean(), async (before, after, inRepo) => {
        const root = await tempDir('patchsmith-snapshot-prop-');
        try {
          if (inRepo) await initRepo(root);
          for (const [i, path] of UNIVERSE.entries()) {
            const file = before[i];
            if (file) await writeFile(root, path, file.bytes, file.mode);
          }
          const beforeTree = await readTree(root);
          const targets = new Map(UNIVERSE.map((path, i) => [path, after[i] ?? null] as const));
          const plan = await planFor(root, targets);
          await createSnapshot({ root, plan, message: 'prop' });
          await applyWrites(
            root,
            plan.writes.filter((w) => w.after !== null || w.before !== null),
          );
          await pruneEmptyDirs(root);

          const undo = await planUndo({ root });
          if (!undo.ok) throw new Error(undo.message);
          await applyWrites(root, undo.plan.writes);
          await pruneEmptyDirs(root);
          expect(await readTree(root)).toEqual(beforeTree);
        } finally {
          await fs.rm(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  });
});

import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { syncFs } from './sync-fs.js';
import { baseline, checkCrash, checkFault, type Scenario } from './test-support/fault-check.js';
import { treeAndPlanArb } from './test-support/random-plan.js';
import { beforeOf, bytes, expectedSpec, shapeOfSpec } from './test-support/tree.js';

/** One plan that does every kind of step: updates, mode changes, overwrites, deletes that empty
 * folders, moves into new folders, writes through a symlink and the delete of a symlink. */
const rich: Scenario = {
  spec: {
    files: {
      'x.txt': { bytes: bytes('root file\n'), mode: 0o644 },
      y: { bytes: bytes('moved away\n'), mode: 0o755 },
      'a/x.txt': { bytes: bytes('a x\n'), mode: 0o600 },
      'a/y': { bytes: bytes('a y, mode only\n'), mode: 0o644 },
      'a/c/z.md': { bytes: bytes('alone in a/c\n'), mode: 0o640 },
      'b/deep/y': { bytes: bytes('alone in b\n'), mode: 0o644 },
      'target.txt': { bytes: bytes('through a link\n'), mode: 0o644 },
      'k/kept.txt': { bytes: bytes('kept\n'), mode: 0o644 },
    },
    dirs: ['e/f'],
  },
  plan: { files: [], writes: [] },
  decorate: async (root) => {
    await symlink('target.txt', join(root, 'link.txt'));
    await symlink('kept.txt', join(root, 'k', 'gone-link'));
  },
};
rich.plan.writes = [
  {
    path: 'a/x.txt',
    before: beforeOf(rich.spec, 'a/x.txt'),
    after: { bytes: bytes('a x, edited\n'), mode: 0o600 },
  },
  {
    path: 'a/y',
    before: beforeOf(rich.spec, 'a/y'),
    after: { bytes: bytes('a y, mode only\n'), mode: 0o755 },
  },
  { path: 'a/c/z.md', before: beforeOf(rich.spec, 'a/c/z.md'), after: null },
  { path: 'b/deep/y', before: beforeOf(rich.spec, 'b/deep/y'), after: null },
  { path: 'y', before: beforeOf(rich.spec, 'y'), after: null },
  { path: 'n/m/y', before: null, after: { bytes: bytes('moved away, edited\n'), mode: 0o755 } },
  {
    path: 'x.txt',
    before: beforeOf(rich.spec, 'x.txt'),
    after: { bytes: bytes('overwritten\n'), mode: 0o644 },
  },
  {
    path: 'link.txt',
    before: beforeOf(rich.spec, 'target.txt'),
    after: { bytes: bytes('written through\n'), mode: 0o644 },
  },
  { path: 'k/gone-link', before: beforeOf(rich.spec, 'k/kept.txt'), after: null },
  { path: 'new.txt', before: null, after: { bytes: new Uint8Array(0), mode: 0o644 } },
];

describe('applyPlan under injected faults', () => {
  it('the rich plan: failing each mutating call in turn leaves the before state (after state past the commit point)', async () => {
    const { before, after, calls } = await baseline(rich);
    expect(after.files['link.txt']).toBe('link:target.txt');
    expect(after.files['target.txt']).toContain(Buffer.from('written through\n').toString('hex'));
    expect(after.files['k/gone-link']).toBeUndefined();
    expect(after.dirs.some((d) => d.startsWith('b/'))).toBe(false);
    expect(after.dirs.some((d) => d.startsWith('a/c/'))).toBe(false);
    expect(after.dirs.some((d) => d.startsWith('e/f/'))).toBe(true);
    expect(calls).toBeGreaterThan(40);
    for (let k = 1; k <= calls + 1; k++) await checkFault(rich, k, before, after);
  });

  it('random trees and plans, a random call failing', async () => {
    await fc.assert(
      fc.asyncProperty(treeAndPlanArb, fc.integer({ min: 1, max: 80 }), async ({ spec, plan }, k) => {
        const before = await shapeOfSpec(spec);
        const after = await shapeOfSpec(expectedSpec(spec, plan));
        await checkFault({ spec, plan }, k, before, after);
      }),
      { numRuns: 100 },
    );
  });

  it('with no failure, random plans leave exactly the planned after state', async () => {
    await fc.assert(
      fc.asyncProperty(treeAndPlanArb, async ({ spec, plan }) => {
        const { after } = await baseline({ spec, plan });
        expect(after).toEqual(await shapeOfSpec(expectedSpec(spec, plan)));
      }),
      { numRuns: 40 },
    );
  });
});

describe("applyPlan over syncFs (the CLI's file system) under injected faults", () => {
  it('the rich plan: the same calls as node:fs/promises, and the same before-or-after at each fault', async () => {
    const viaPromises = await baseline(rich);
    const { before, after, calls } = await baseline(rich, syncFs);
    expect({ before, after, calls }).toEqual(viaPromises);
    for (let k = 1; k <= calls + 1; k++) await checkFault(rich, k, before, after, syncFs);
  });

  it('random trees and plans, a random call failing', async () => {
    await fc.assert(
      fc.asyncProperty(treeAndPlanArb, fc.integer({ min: 1, max: 80 }), async ({ spec, plan }, k) => {
        const before = await shapeOfSpec(spec);
        const after = await shapeOfSpec(expectedSpec(spec, plan));
        await checkFault({ spec, plan }, k, before, after, syncFs);
      }),
      { numRuns: 30 },
    );
  });
});

describe('recoverTransaction after a crash', () => {
  it('the rich plan killed at each mutating call: recovery (itself killed once) gives the before state, or the after state past the commit point', async () => {
    const { before, after, calls } = await baseline(rich);
    for (let k = 1; k <= calls; k++) await checkCrash(rich, k, 1 + ((k * 7) % 29), before, after);
  });

  it('random trees and plans killed at a random call', async () => {
    await fc.assert(
      fc.asyncProperty(
        treeAndPlanArb,
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 1, max: 40 }),
        async ({ spec, plan }, k, j) => {
          const before = await shapeOfSpec(spec);
          const after = await shapeOfSpec(expectedSpec(spec, plan));
          await checkCrash({ spec, plan }, k, j, before, after);
        },
      ),
      { numRuns: 60 },
    );
  });
});

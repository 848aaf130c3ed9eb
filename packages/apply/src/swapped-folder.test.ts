import { mkdir, mkdtemp, readdir, rename, rm, symlink, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Plan } from '@patchsmith/planner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { recoverTransaction } from './recover-transaction.js';
import { swappingFs } from './test-support/swapping-fs.js';
import {
  beforeOf,
  bytes,
  expectedSpec,
  materialize,
  shapeOf,
  shapeOfSpec,
  type TreeShape,
  type TreeSpec,
} from './test-support/tree.js';

const file = (text: string) => ({ bytes: bytes(text), mode: 0o644 });
const spec: TreeSpec = {
  files: {
    'top.txt': file('top\n'),
    'sub/x.txt': file('x\n'),
    'sub/y.txt': file('y\n'),
    'sub/keep.txt': file('keep\n'),
  },
};
// The sibling folder the swapped-in link leads to: it holds the names the plan writes in sub/.
const outsideSpec: TreeSpec = {
  files: { 'x.txt': file('outside x\n'), 'y.txt': file('outside y\n'), 'new.txt': file('outside new\n') },
  dirs: ['deep'],
};
const plan: Plan = {
  files: [],
  writes: [
    { path: 'top.txt', before: beforeOf(spec, 'top.txt'), after: file('top, edited\n') },
    { path: 'sub/x.txt', before: beforeOf(spec, 'sub/x.txt'), after: file('x, edited\n') },
    { path: 'sub/y.txt', before: beforeOf(spec, 'sub/y.txt'), after: null },
    { path: 'sub/new.txt', before: null, after: file('new\n') },
    { path: 'sub/deep/z.txt', before: null, after: file('z\n') },
  ],
};

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'patchsmith-swap-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A root (with `.git/`) and the sibling folder `outside/`, both fresh. */
async function scene(name: string): Promise<{ root: string; outside: string }> {
  const root = join(base, name, 'root');
  const outside = join(base, name, 'outside');
  await mkdir(join(root, '.git'), { recursive: true });
  await materialize(root, spec);
  await mkdir(outside);
  await materialize(outside, outsideSpec);
  return { root, outside };
}

/** `sub/` exchanged for a symlink to the sibling folder (as renameat2 RENAME_EXCHANGE would). */
const swapIn = (root: string, outside: string) => async () => {
  await rename(join(root, 'sub'), join(root, 'sub.real'));
  await symlink(outside, join(root, 'sub'));
};

/** Puts the real `sub/` back, so the tree can be compared with what it should be. */
async function swapBack(root: string): Promise<void> {
  await unlink(join(root, 'sub'));
  await rename(join(root, 'sub.real'), join(root, 'sub'));
}

describe('a folder swapped for a symlink to outside the root while the patch is applied', () => {
  it('at every call of the transaction: the outside is untouched, and the result is a refusal or everything inside', async () => {
    const probe = await scene('probe');
    const dry = swappingFs(Number.POSITIVE_INFINITY, async () => {});
    expect(await applyPlan(plan, { root: probe.root, fs: dry.fs })).toEqual({ ok: true });
    const total = dry.calls();
    const before: TreeShape = await shapeOfSpec(spec);
    const after: TreeShape = await shapeOfSpec(expectedSpec(spec, plan));
    const outsideShape = await shapeOf(probe.outside);
    const outcomes = new Map<string, number>();
    for (let at = 1; at <= total; at++) {
      const { root, outside } = await scene(`at-${at}`);
      const swapping = swappingFs(at, swapIn(root, outside));
      const result = await applyPlan(plan, { root, fs: swapping.fs });
      expect(await shapeOf(outside), `swap before call ${at}`).toEqual(outsideShape);
      const outcome = result.ok ? 'ok' : result.errors.map((e) => e.code).join(',');
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      if (!result.ok) {
        for (const error of result.errors) expect(error.message).not.toMatch(/patchsmith-tmp/);
      }
      await swapBack(root);
      if (result.ok) {
        expect(await shapeOf(root), `swap before call ${at}`).toEqual(after);
      } else {
        // A rollback the swap stopped kept its journal: recovery, with the folder back, finishes it.
        await recoverTransaction(root);
        expect(await shapeOf(root), `swap before call ${at}`).toEqual(before);
      }
      const leftovers = (await readdir(join(base, `at-${at}`), { recursive: true })).filter((name) =>
        name.includes('patchsmith-tmp'),
      );
      expect(leftovers, `swap before call ${at}`).toEqual([]);
    }
    // The swap lands at every step: before the checks (refused early), during staging, around the renames.
    const codes = [...outcomes.keys()].join(',');
    expect(codes).toContain('PATH_OUTSIDE_ROOT');
    expect(outcomes.get('ok') ?? 0).toBeGreaterThan(0);
  });
});

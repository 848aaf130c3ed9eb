/** Fault injection and crash checks of one plan: the tree is the before state, or the after state past the commit point. */
import * as nodeFs from 'node:fs/promises';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plan } from '@patchsmith/planner';
import { expect } from 'vitest';
import { applyPlan } from '../apply-plan.js';
import type { TransactionFs } from '../fs.js';
import { recoverTransaction } from '../recover-transaction.js';
import { type FaultyFs, faultyFs } from './faulty-fs.js';
import { makeRoot, materialize, removeRoot, shapeOf, type TreeShape, type TreeSpec } from './tree.js';

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
const stateDir = (root: string) => join(root, '.git', 'patchsmith');
const journalOf = (root: string) => join(stateDir(root), 'txn', 'journal.json');
// The transaction passed its commit point: the journal's removal completed before the fault.
const committed = (fs: FaultyFs, root: string) => fs.beforeFault().includes(`unlink ${journalOf(root)}`);

export interface Scenario {
  spec: TreeSpec;
  plan: Plan;
  /** Run after materializing (symlinks). */
  decorate?: (root: string) => Promise<void>;
}

async function freshRoot(scenario: Scenario): Promise<string> {
  const root = await makeRoot();
  await materialize(root, scenario.spec);
  await scenario.decorate?.(root);
  return root;
}

/** The shapes before and after a successful apply, and how many mutating calls it makes. */
export async function baseline(
  scenario: Scenario,
  base: TransactionFs = nodeFs,
): Promise<{ before: TreeShape; after: TreeShape; calls: number }> {
  const root = await freshRoot(scenario);
  const before = await shapeOf(root);
  const dry = faultyFs({}, base);
  expect(await applyPlan(scenario.plan, { root, fs: dry.fs })).toEqual({ ok: true });
  const after = await shapeOf(root);
  expect(await exists(join(stateDir(root), 'txn'))).toBe(false);
  expect(await exists(join(stateDir(root), 'lock'))).toBe(false);
  await removeRoot(root);
  return { before, after, calls: dry.count() };
}

/** Fails the k-th mutating call: before state and IO_ERROR, or after state when past the commit point. */
export async function checkFault(
  scenario: Scenario,
  k: number,
  before: TreeShape,
  after: TreeShape,
  base: TransactionFs = nodeFs,
): Promise<void> {
  const root = await freshRoot(scenario);
  const faulty = faultyFs({ failAt: k }, base);
  const result = await applyPlan(scenario.plan, { root, fs: faulty.fs });
  if (faulty.count() < k || committed(faulty, root)) {
    expect(result).toEqual({ ok: true });
    expect(await shapeOf(root)).toEqual(after);
  } else {
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]).toMatchObject({ code: 'IO_ERROR' });
      expect(result.errors[0]!.message).toContain('injected failure');
      expect(result.errors[0]!.message).toMatch(/rolled back|nothing was written/);
    }
    expect(await shapeOf(root)).toEqual(before);
    expect(await exists(join(stateDir(root), 'txn'))).toBe(false);
  }
  // Cleanup that a failure past the commit point skipped is finished by the next recover.
  await recoverTransaction(root);
  expect(await exists(join(stateDir(root), 'txn'))).toBe(false);
  expect(await shapeOf(root)).toEqual(faulty.count() < k || committed(faulty, root) ? after : before);
  await removeRoot(root);
}

/** Kills the process at the k-th mutating call, kills the first recovery at its j-th, recovers again. */
export async function checkCrash(
  scenario: Scenario,
  k: number,
  j: number,
  before: TreeShape,
  after: TreeShape,
) {
  const root = await freshRoot(scenario);
  const crashed = faultyFs({ failAt: k, kill: true });
  await applyPlan(scenario.plan, { root, fs: crashed.fs });
  const wanted = crashed.count() < k || committed(crashed, root) ? after : before;
  // Past the three calls that take the recovery's lock (mkdir, open, write of the lock file): a
  // lock file left empty is only broken after a grace period, which lock.test.ts covers.
  const interrupted = faultyFs({ failAt: 3 + j, kill: true });
  await recoverTransaction(root, { fs: interrupted.fs }).catch(() => {});
  await recoverTransaction(root);
  expect(await shapeOf(root)).toEqual(wanted);
  expect(await exists(join(stateDir(root), 'txn'))).toBe(false);
  await removeRoot(root);
}

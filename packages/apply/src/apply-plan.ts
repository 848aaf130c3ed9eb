import { type EditError, PatchsmithError, type PermissionPolicy } from '@patchsmith/core';
import type { Plan } from '@patchsmith/planner';
import { type CheckedWrite, checkWrites } from './check-writes.js';
import { openRoot, type RootContext } from './context.js';
import { defaultFs, type TransactionFs } from './fs.js';
import { ioError } from './io-failure.js';
import {
  acquireLock,
  DEFAULT_LOCK_TIMEOUT_MS,
  holdsLock,
  openLockedRoot,
  type RootLock,
  releaseLock,
} from './lock.js';
import { recoverUnderLock } from './recover-transaction.js';
import { type ApplyResult, runTransaction } from './run-transaction.js';
import { loadWritePolicy } from './write-policy.js';

export interface ApplyOptions {
  /** The folder the plan's paths are relative to. */
  root: string;
  fs?: TransactionFs;
  /** How long to wait for another apply on this root before failing with `BUSY` (default 10 s). */
  lockTimeoutMs?: number;
  /** The root's lock, when the caller already holds it (`withRootLock`); it is not released here. */
  lock?: RootLock;
  /**
   * The permission rules every write is decided by, under the path as written and the real path
   * written (any deny wins). Default: the root's `.patchsmith.json`, read here (a broken one is
   * `PARSE_ERROR`, nothing written).
   */
  policy?: PermissionPolicy;
  /** The caller's gate already got a yes for every `ask` path; without it, `ask` paths are `DENIED`. */
  askApproved?: boolean;
  /** A host setting, never something a patch carries: let this apply write `.patchsmith.json` and `.patchsmith/`. */
  allowConfigWrites?: boolean;
  /** A host setting, never something a patch carries: let a link the plan makes lead outside the root (never into private state). */
  allowOutsideLinks?: boolean;
  /**
   * Called under the lock once every check has passed, right before the first write (and only when
   * there is something to write), e.g. to take a snapshot: every write's `before` is then what the
   * disk holds. When it throws, nothing is written and the apply fails with its error. The checks
   * are not repeated after it (that would read every file again), so it should be short: a file
   * another program replaces meanwhile is still caught when it is backed up (by its identity),
   * one changed in place is not, as during the writes themselves.
   */
  beforeFirstWrite?: (plan: Plan) => Promise<void>;
}

/** An expected failure as a result value. */
function failure(error: unknown, root: string, outcome: string): { ok: false; errors: EditError[] } {
  if (error instanceof PatchsmithError) return { ok: false, errors: [error.toEditError()] };
  return { ok: false, errors: [ioError(root, error, outcome)] };
}

/**
 * With the lock held: finish any earlier transaction, check the plan against the disk, let the
 * caller act on the checked plan (`beforeFirstWrite`), carry it out.
 */
async function applyLocked(ctx: RootContext, plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  try {
    await recoverUnderLock(ctx);
  } catch (error) {
    return failure(
      error,
      ctx.realRoot,
      'an unfinished earlier transaction could not be recovered; nothing was written',
    );
  }
  const checked = await checkAgainstDisk(ctx, plan, options);
  if (!checked.ok) return checked;
  if (checked.writes.length > 0 && options.beforeFirstWrite !== undefined) {
    try {
      await options.beforeFirstWrite(plan);
    } catch (error) {
      return failure(error, ctx.realRoot, 'nothing was written');
    }
  }
  return runTransaction(ctx, checked.writes);
}

/** The policy of this apply, then every write checked against it and the disk; writes nothing. */
async function checkAgainstDisk(
  ctx: RootContext,
  plan: Plan,
  options: ApplyOptions,
): Promise<{ ok: true; writes: CheckedWrite[] } | { ok: false; errors: EditError[] }> {
  try {
    const policy = await loadWritePolicy(ctx, options);
    if (!policy.ok) return policy;
    return await checkWrites(ctx, plan.writes, policy.value);
  } catch (error) {
    return failure(error, ctx.realRoot, 'nothing was written');
  }
}

/**
 * Everything `applyPlan` checks before its first write (the permission policy under every name,
 * the config's protection, staleness, read-only files, where each path leads), without the lock
 * and without writing: what a `--check` or a preview must report, so that it never says a plan
 * applies when the apply would refuse it.
 */
export async function checkPlan(plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  if (plan.writes.length === 0) return { ok: true };
  let ctx: RootContext;
  try {
    ctx = await openRoot(options.root, options.fs ?? defaultFs);
  } catch (error) {
    return failure(error, options.root, 'nothing was written');
  }
  const checked = await checkAgainstDisk(ctx, plan, options);
  return checked.ok ? { ok: true } : checked;
}

/**
 * SPEC §4 steps 4-6: carries out a plan all or nothing. Takes the root's lock (waiting up to
 * `lockTimeoutMs`, then `BUSY`), decides every write by the permission policy under all its names
 * (`DENIED`, nothing written), re-checks every write's before state (`STALE`, nothing written),
 * stages new contents beside their targets, journals, renames into place, removes deleted files
 * and the folders they leave empty, and drops the journal. Any failure before that last step
 * rolls back byte for byte and answers `IO_ERROR` naming the call and the path.
 */
export async function applyPlan(plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  if (plan.writes.length === 0) return { ok: true };
  const fs = options.fs ?? defaultFs;
  let ctx: RootContext;
  let lock: RootLock;
  try {
    ctx = await openLockedRoot(options.root, fs, options.lock);
    if (options.lock !== undefined && !holdsLock(options.lock)) {
      throw new PatchsmithError('IO_ERROR', 'the lock passed to applyPlan is not held');
    }
    lock = options.lock ?? (await acquireLock(ctx, options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS));
  } catch (error) {
    return failure(error, options.root, 'nothing was written');
  }
  try {
    return await applyLocked(ctx, plan, options);
  } finally {
    if (options.lock === undefined) await releaseLock(fs, lock).catch(() => {});
  }
}

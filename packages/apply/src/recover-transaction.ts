import { PatchsmithError } from '@patchsmith/core';
import type { RootContext } from './context.js';
import { defaultFs, lstatOrNull, type TransactionFs } from './fs.js';
import { asPatchsmithError, io } from './io-failure.js';
import { dropTxnDir } from './journal.js';
import {
  acquireLock,
  DEFAULT_LOCK_TIMEOUT_MS,
  holdsLock,
  openLockedRoot,
  type RootLock,
  releaseLock,
} from './lock.js';
import { readJournal } from './read-journal.js';
import { rollBack } from './roll-back.js';
import { recoveryFailed } from './rollback-report.js';
import { checkTxnDir } from './state-folders.js';

export interface RecoverOptions {
  fs?: TransactionFs;
  /** How long to wait for a live apply to finish before failing with `BUSY` (default 10 s). */
  lockTimeoutMs?: number;
  /** The root's lock, when the caller already holds it (`withRootLock`). */
  lock?: RootLock;
}

export interface RecoverResult {
  /** A journal was found and the before state restored. */
  recovered: boolean;
  /** The plan paths that transaction touched. */
  paths: string[];
}

/**
 * With the lock held: rolls back the transaction a journal describes, or (no journal) clears what a
 * transaction killed before writing its journal, or after its commit point, left in the state dir.
 * The state dir, the transaction folder and the journal are checked first (`STATE_INVALID`, with
 * nothing changed); a rollback that cannot finish says what it leaves (`IO_ERROR`).
 */
export async function recoverUnderLock(ctx: RootContext): Promise<RecoverResult> {
  if ((await checkTxnDir(ctx)) === null) return { recovered: false, paths: [] };
  const found = await readJournal(ctx);
  if (found !== null) {
    // The journal's own root: another root of the same repository may have written it.
    try {
      await rollBack(found.ctx, found.journal);
    } catch (error) {
      throw recoveryFailed(found.ctx, found.journal, error);
    }
  }
  await dropTxnDir(ctx);
  return { recovered: found !== null, paths: found?.journal.entries.map((entry) => entry.path) ?? [] };
}

/** Runs `fn` on the root with its lock held (taken here unless the caller passes it), errors as `PatchsmithError`. */
export async function underRootLock<T>(
  root: string,
  options: RecoverOptions,
  fn: (ctx: RootContext) => Promise<T>,
  skip: (ctx: RootContext) => Promise<T | null> = async () => null,
): Promise<T> {
  const fs = options.fs ?? defaultFs;
  let lock: RootLock | null = null;
  try {
    const ctx = await openLockedRoot(root, fs, options.lock);
    const early = await skip(ctx);
    if (early !== null) return early;
    if (options.lock === undefined)
      lock = await acquireLock(ctx, options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
    else if (!holdsLock(options.lock)) {
      throw new PatchsmithError('IO_ERROR', 'the lock passed to patchsmith is not held');
    }
    return await fn(ctx);
  } catch (error) {
    throw asPatchsmithError(error);
  } finally {
    if (lock !== null) await releaseLock(fs, lock).catch(() => {});
  }
}

/**
 * SPEC §4.5: finds the journal of a transaction whose process died and restores the before state
 * (a transaction that had passed its commit point is left applied). Idempotent: a recovery that is
 * itself killed is finished by the next call. Without a transaction folder it costs the state-dir
 * lookup and one lstat, and takes no lock. Throws `PatchsmithError` (`BUSY`, `IO_ERROR`,
 * `STATE_INVALID` for a journal or state folder it will not trust, having changed nothing).
 */
export async function recoverTransaction(root: string, options: RecoverOptions = {}): Promise<RecoverResult> {
  return underRootLock(root, options, recoverUnderLock, async (ctx) => {
    const txn = await io('lstat', ctx.txnDir, () => lstatOrNull(ctx.fs, ctx.txnDir));
    return txn === null ? { recovered: false, paths: [] } : null;
  });
}

import { PatchsmithError } from '@patchsmith/grammar';
import { openRoot, type RootContext } from './context.js';
import { defaultFs, lstatOrNull, type TransactionFs } from './fs.js';
import { asPatchsmithError, io } from './io-failure.js';
import { dropTxnDir, readJournal } from './journal.js';
import { acquireLock, DEFAULT_LOCK_TIMEOUT_MS, holdsLock, type RootLock, releaseLock } from './lock.js';
import { rollBack } from './roll-back.js';

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
 */
export async function recoverUnderLock(ctx: RootContext): Promise<RecoverResult> {
  if ((await io('lstat', ctx.txnDir, () => lstatOrNull(ctx.fs, ctx.txnDir))) === null) {
    return { recovered: false, paths: [] };
  }
  const journal = await readJournal(ctx);
  if (journal !== null) await rollBack(ctx, journal);
  await dropTxnDir(ctx);
  return { recovered: journal !== null, paths: journal?.entries.map((entry) => entry.path) ?? [] };
}

/**
 * SPEC §4.5: finds the journal of a transaction whose process died and restores the before state
 * (a transaction that had passed its commit point is left applied). Idempotent: a recovery that is
 * itself killed is finished by the next call. Without a transaction folder it costs the state-dir
 * lookup and one lstat, and takes no lock. Throws `PatchsmithError` (`BUSY`, `IO_ERROR`).
 */
export async function recoverTransaction(root: string, options: RecoverOptions = {}): Promise<RecoverResult> {
  const fs = options.fs ?? defaultFs;
  let lock: RootLock | null = null;
  try {
    const ctx = await openRoot(root, fs);
    if ((await io('lstat', ctx.txnDir, () => lstatOrNull(fs, ctx.txnDir))) === null) {
      return { recovered: false, paths: [] };
    }
    if (options.lock === undefined)
      lock = await acquireLock(ctx, options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
    else if (!holdsLock(options.lock)) {
      throw new PatchsmithError('IO_ERROR', 'the lock passed to recoverTransaction is not held');
    }
    return await recoverUnderLock(ctx);
  } catch (error) {
    throw asPatchsmithError(error);
  } finally {
    if (lock !== null) await releaseLock(fs, lock).catch(() => {});
  }
}

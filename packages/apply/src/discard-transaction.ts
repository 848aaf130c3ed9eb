import { join } from 'node:path';
import type { RootContext } from './context.js';
import { lstatOrNull, type TransactionFs } from './fs.js';
import { io } from './io-failure.js';
import { unlinkIfPresent } from './journal.js';
import { type RecoverOptions, underRootLock } from './recover-transaction.js';
import { checkStateDir } from './state-folders.js';

export interface DiscardResult {
  /** A transaction folder was there, and is gone. */
  discarded: boolean;
}

/** Removes `dir` and everything below it, following no symbolic link (a link is removed, not entered). */
async function removeTree(fs: TransactionFs, dir: string): Promise<void> {
  // Depth first without recursion: a hostile folder may nest deeper than the stack goes.
  const pending: { dir: string; entered: boolean }[] = [{ dir, entered: false }];
  while (pending.length > 0) {
    const top = pending[pending.length - 1]!;
    if (top.entered) {
      pending.pop();
      await io('rmdir', top.dir, () => fs.rmdir(top.dir));
      continue;
    }
    top.entered = true;
    for (const name of await io('readdir', top.dir, () => fs.readdir(top.dir))) {
      const path = join(top.dir, name);
      const stats = await io('lstat', path, () => lstatOrNull(fs, path));
      if (stats?.isDirectory() && !stats.isSymbolicLink()) pending.push({ dir: path, entered: false });
      else if (stats !== null) await unlinkIfPresent(fs, path);
    }
  }
}

/** With the lock held: drops the transaction folder, whatever it holds, inside a real state dir only. */
async function discardUnderLock(ctx: RootContext): Promise<DiscardResult> {
  // A state dir that is a link would lead the removal elsewhere: refused (STATE_INVALID).
  if (!(await checkStateDir(ctx))) return { discarded: false };
  const { fs, txnDir } = ctx;
  const stats = await io('lstat', txnDir, () => lstatOrNull(fs, txnDir));
  if (stats === null) return { discarded: false };
  // A link or a file named `txn` is removed itself; only a real folder is entered.
  if (stats.isDirectory() && !stats.isSymbolicLink()) await removeTree(fs, txnDir);
  else await unlinkIfPresent(fs, txnDir);
  return { discarded: true };
}

/**
 * `patchsmith recover --discard`: drops an interrupted transaction's folder (its journal and
 * backups) without restoring anything, for a person who chose to keep the tree as it is — a
 * journal recovery refuses (`STATE_INVALID`), or a rollback that cannot finish. It removes nothing
 * outside the state dir's `txn` folder: links are removed, never followed. Takes the root's lock.
 */
export async function discardTransaction(root: string, options: RecoverOptions = {}): Promise<DiscardResult> {
  return underRootLock(root, options, discardUnderLock);
}

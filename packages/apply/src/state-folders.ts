import { join } from 'node:path';
import type { RootContext } from './context.js';
import { lstatOrNull, type TransactionStats } from './fs.js';
import { io } from './io-failure.js';
import { stateInvalid } from './state-invalid.js';

// A name the transaction writes in its folder (or half wrote: `.partial`): the journal, a backup, or a deleted entry taken
// aside to be checked (`removed-N`, transient: its bytes are also in `backup-N`).
const isTxnName = (name: string) =>
  /^(journal\.json|(backup|removed)-(0|[1-9][0-9]{0,8}))(\.partial)?$/.test(name);

/** What a directory entry is, for messages. */
const kindOf = (stats: TransactionStats) =>
  stats.isSymbolicLink()
    ? 'a symbolic link'
    : stats.isDirectory()
      ? 'a folder'
      : stats.isFile()
        ? 'a file'
        : 'a special file';

/**
 * The private state dir, if it exists, is a real folder: a symlink (or a file) there would lead
 * the lock, the journal and the backups wherever it points. Throws `STATE_INVALID`.
 */
export async function checkStateDir(ctx: RootContext): Promise<boolean> {
  const stats = await io('lstat', ctx.stateDir, () => lstatOrNull(ctx.fs, ctx.stateDir));
  if (stats === null) return false;
  if (stats.isDirectory() && !stats.isSymbolicLink()) return true;
  throw stateInvalid(
    ctx,
    'the private state folder',
    ctx.stateDir,
    `it is ${kindOf(stats)}, not a folder`,
    'remove it by hand (patchsmith follows no link there)',
  );
}

/**
 * The transaction folder, if any, is a real folder inside a real state dir that holds only names
 * the transaction writes (no folders): what `dropTxnDir` will remove. Answers its names, or null
 * when there is no transaction folder. Throws `STATE_INVALID`, having changed nothing.
 */
export async function checkTxnDir(ctx: RootContext): Promise<string[] | null> {
  if (!(await checkStateDir(ctx))) return null;
  const { fs, txnDir } = ctx;
  const stats = await io('lstat', txnDir, () => lstatOrNull(fs, txnDir));
  if (stats === null) return null;
  if (!stats.isDirectory() || stats.isSymbolicLink()) {
    throw stateInvalid(ctx, 'the transaction folder', txnDir, `it is ${kindOf(stats)}, not a folder`);
  }
  const names = await io('readdir', txnDir, () => fs.readdir(txnDir));
  for (const name of names) {
    const path = join(txnDir, name);
    if (!isTxnName(name)) {
      throw stateInvalid(
        ctx,
        'the transaction folder',
        txnDir,
        `it holds ${name}, which patchsmith never writes`,
      );
    }
    const entry = await io('lstat', path, () => lstatOrNull(fs, path));
    if (entry?.isDirectory()) {
      throw stateInvalid(ctx, 'the transaction folder', txnDir, `${name} is a folder`);
    }
  }
  return names;
}

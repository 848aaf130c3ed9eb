import { join } from 'node:path';
import { runAll } from '@patchsmith/core';
import type { RootContext } from './context.js';
import { errnoOf, isMissing, type TransactionFileHandle, type TransactionFs } from './fs.js';
import { IoFailure, io } from './io-failure.js';

/**
 * One planned write as the journal records it. Tree paths are relative to the real root and
 * backups are names inside the transaction folder, so a journal survives the root being moved.
 */
export interface JournalEntry {
  /** The plan's path, for reporting. */
  path: string;
  /** The staged new content beside its target. */
  temp: string | null;
  /** Where the staged file is renamed to. */
  target: string | null;
  /** The target did not exist before: rolling back removes it. */
  created: boolean;
  /** The original's hard link (or copy) in the transaction folder. */
  backup: string | null;
  /** Where the backup goes back to. */
  restoreTo: string | null;
  /** The directory entry a delete removes. */
  remove: string | null;
}

/** Everything needed to put the before state back, written (and fsync'd) before the tree is touched. */
export interface Journal {
  version: 1;
  id: string;
  /** The transaction's root relative to the state dir's work tree (`''` for the work tree itself). */
  base: string;
  /** Folders the transaction creates, outermost first. */
  createdDirs: string[];
  /** The modes of the folders a delete may leave empty (and so remove), to recreate them as they were. */
  dirModes: Record<string, number>;
  entries: JournalEntry[];
}

/** Creates `path` (exclusive) with `data`, `mode` set exactly; fsync'd before it is closed when `durable`. */
async function writeNew(
  fs: TransactionFs,
  path: string,
  data: Uint8Array | string,
  mode: number | undefined,
  durable: boolean,
): Promise<void> {
  await withHandle(fs, path, 'wx', mode ?? 0o600, async (handle) => {
    await io('write', path, () => handle.writeFile(data));
    if (mode !== undefined) await io('chmod', path, () => handle.chmod(mode));
    if (durable) await io('fsync', path, () => handle.sync());
  });
}

/**
 * Writes a new file without fsyncing it: the transaction stages every file first and fsyncs them
 * together afterwards (`syncFile`), many in flight at once.
 */
export const writeStaged = (fs: TransactionFs, path: string, data: Uint8Array | string, mode?: number) =>
  writeNew(fs, path, data, mode, false);

/** Opens `path` for writing (exclusive), writes `data`, fsyncs and closes it; `mode` is set exactly. */
export const writeDurably = (fs: TransactionFs, path: string, data: Uint8Array | string, mode?: number) =>
  writeNew(fs, path, data, mode, true);

/** Runs `use` on `path` opened with `flags`, and closes it whatever happens. */
async function withHandle(
  fs: TransactionFs,
  path: string,
  flags: string,
  mode: number | undefined,
  use: (handle: TransactionFileHandle) => Promise<void>,
): Promise<void> {
  const handle = await io('open', path, () => fs.open(path, flags, mode));
  try {
    await use(handle);
  } finally {
    await handle.close().catch(() => {});
  }
}

// How a file already written is opened again to be fsync'd: read-only is enough for POSIX fsync
// (and needs no write access to a folder that might have been swapped); Windows' FlushFileBuffers
// needs a handle open for writing.
const RESYNC_FLAGS = process.platform === 'win32' ? 'r+' : 'r';

/** fsyncs a file written (and closed) before, so that its bytes survive a power loss. */
export async function syncFile(fs: TransactionFs, path: string): Promise<void> {
  await withHandle(fs, path, RESYNC_FLAGS, undefined, (handle) => io('fsync', path, () => handle.sync()));
}

/** fsyncs a folder, so that names created or removed in it survive a power loss. */
export async function syncDir(fs: TransactionFs, dir: string): Promise<void> {
  await withHandle(fs, dir, 'r', undefined, (handle) => io('fsync', dir, () => handle.sync()));
}

/** syncDir of a folder that may be gone (a delete emptied it): its parent is fsync'd for that. */
export async function syncDirIfPresent(fs: TransactionFs, dir: string): Promise<void> {
  try {
    await syncDir(fs, dir);
  } catch (error) {
    const cause = error instanceof IoFailure ? error.cause : error;
    if (!isAbsent(cause)) throw error;
  }
}

/** Writes the journal atomically: a fsync'd temporary file renamed into place, then the folder fsync'd. */
export async function writeJournal(ctx: RootContext, journal: Journal): Promise<void> {
  const partial = `${ctx.journalPath}.partial`;
  await writeDurably(ctx.fs, partial, JSON.stringify(journal));
  await io('rename', partial, () => ctx.fs.rename(partial, ctx.journalPath));
  await syncDir(ctx.fs, ctx.txnDir);
}

/**
 * Removes the transaction folder: the journal first (after a rollback this marks it finished),
 * then the backups and anything a killed process left half written.
 */
export async function dropTxnDir(ctx: RootContext): Promise<void> {
  const { fs, txnDir, journalPath } = ctx;
  let names: string[];
  try {
    names = await fs.readdir(txnDir);
  } catch (error) {
    if (isMissing(error)) return;
    throw new IoFailure('readdir', txnDir, error);
  }
  if (names.includes('journal.json')) await unlinkIfPresent(fs, journalPath);
  const rest = names.filter((n) => n !== 'journal.json');
  await runAll(rest.map((name) => () => unlinkIfPresent(fs, join(txnDir, name))));
  await io('rmdir', txnDir, async () => {
    try {
      await fs.rmdir(txnDir);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  });
}

// The path cannot name anything: nothing there, a file where a folder is needed, or a path too long
// for the file system (the transaction cannot have created what it cannot name).
const isAbsent = (error: unknown) => ['ENOENT', 'ENOTDIR', 'ENAMETOOLONG'].includes(errnoOf(error) ?? '');

/** unlink that treats an absent path as done. */
export async function unlinkIfPresent(fs: TransactionFs, path: string): Promise<void> {
  try {
    await fs.unlink(path);
  } catch (error) {
    if (!isAbsent(error)) throw new IoFailure('unlink', path, error);
  }
}

// rmdir's answers that mean "not ours to remove" rather than a failure.
const isKeptFolder = (error: unknown) =>
  isAbsent(error) || ['ENOTEMPTY', 'EEXIST'].includes(errnoOf(error) ?? '');

/** rmdir that leaves a folder that is not empty (or already gone) alone. */
export async function rmdirIfEmpty(fs: TransactionFs, dir: string): Promise<void> {
  try {
    await fs.rmdir(dir);
  } catch (error) {
    if (!isKeptFolder(error)) throw new IoFailure('rmdir', dir, error);
  }
}

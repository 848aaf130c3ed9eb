import { join } from 'node:path';
import { PatchsmithError } from '@patchsmith/grammar';
import type { RootContext } from './context.js';
import { errnoOf, isMissing, type TransactionFs } from './fs.js';
import { IoFailure, io } from './io-failure.js';
import { runAll } from './map-limit.js';

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
  /** Folders the transaction creates, outermost first. */
  createdDirs: string[];
  /** The modes of the folders a delete may leave empty (and so remove), to recreate them as they were. */
  dirModes: Record<string, number>;
  entries: JournalEntry[];
}

// A journal that this version knows how to roll back.
function isJournal(value: unknown): value is Journal {
  const journal = value as Partial<Journal> | null;
  return (
    journal?.version === 1 &&
    Array.isArray(journal.entries) &&
    Array.isArray(journal.createdDirs) &&
    typeof journal.dirModes === 'object'
  );
}

/** Opens `path` for writing (exclusive), writes `data`, fsyncs and closes it; `mode` is set exactly. */
export async function writeDurably(
  fs: TransactionFs,
  path: string,
  data: Uint8Array | string,
  mode?: number,
) {
  const handle = await io('open', path, () => fs.open(path, 'wx', mode ?? 0o600));
  try {
    await io('write', path, () => handle.writeFile(data));
    if (mode !== undefined) await io('chmod', path, () => handle.chmod(mode));
    await io('fsync', path, () => handle.sync());
  } finally {
    await handle.close().catch(() => {});
  }
}

/** fsyncs a folder, so that names created or removed in it survive a power loss. */
export async function syncDir(fs: TransactionFs, dir: string): Promise<void> {
  const handle = await io('open', dir, () => fs.open(dir, 'r'));
  try {
    await io('fsync', dir, () => handle.sync());
  } finally {
    await handle.close().catch(() => {});
  }
}

/** Writes the journal atomically: a fsync'd temporary file renamed into place, then the folder fsync'd. */
export async function writeJournal(ctx: RootContext, journal: Journal): Promise<void> {
  const partial = `${ctx.journalPath}.partial`;
  await writeDurably(ctx.fs, partial, JSON.stringify(journal));
  await io('rename', partial, () => ctx.fs.rename(partial, ctx.journalPath));
  await syncDir(ctx.fs, ctx.txnDir);
}

/** The journal of an unfinished transaction, or null when there is none. */
export async function readJournal(ctx: RootContext): Promise<Journal | null> {
  let text: string;
  try {
    text = await ctx.fs.readFile(ctx.journalPath, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw new IoFailure('readFile', ctx.journalPath, error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!isJournal(parsed)) {
    throw new PatchsmithError(
      'IO_ERROR',
      `the transaction journal ${ctx.journalPath} cannot be read; remove it by hand`,
      {
        path: ctx.journalPath,
      },
    );
  }
  return parsed;
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

/** unlink that treats an absent path as done. */
export async function unlinkIfPresent(fs: TransactionFs, path: string): Promise<void> {
  try {
    await fs.unlink(path);
  } catch (error) {
    const code = errnoOf(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new IoFailure('unlink', path, error);
  }
}

// rmdir's answers that mean "not ours to remove" rather than a failure.
const isKeptFolder = (error: unknown) =>
  ['ENOTEMPTY', 'EEXIST', 'ENOENT', 'ENOTDIR'].includes(errnoOf(error) ?? '');

/** rmdir that leaves a folder that is not empty (or already gone) alone. */
export async function rmdirIfEmpty(fs: TransactionFs, dir: string): Promise<void> {
  try {
    await fs.rmdir(dir);
  } catch (error) {
    if (!isKeptFolder(error)) throw new IoFailure('rmdir', dir, error);
  }
}

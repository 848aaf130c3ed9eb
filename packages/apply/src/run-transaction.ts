import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import {
  byDepth,
  type EditError,
  isStrictlyInside,
  isSymlinkMode,
  PatchsmithError,
  randomHex,
  runAll,
} from '@patchsmith/core';
import { caseInsensitiveAt } from './case-folding.js';
import type { CheckedWrite } from './check-writes.js';
import type { RootContext } from './context.js';
import { errnoOf, type TransactionFs } from './fs.js';
import {
  checkFolder,
  entryIdentity,
  type FileIdentity,
  folderSwapped,
  guardedFs,
  sameIdentity,
  type TreeGuard,
} from './guard-folders.js';
import { IoFailure, io, ioError, type ShownNames } from './io-failure.js';
import {
  dropTxnDir,
  type Journal,
  type JournalEntry,
  rmdirIfEmpty,
  syncDir,
  syncDirIfPresent,
  syncFile,
  writeJournal,
} from './journal.js';
import { permissionBits } from './mode-bits.js';
import { clearingOf, removeReplacedFolders } from './replaced-entries.js';
import { rollBack } from './roll-back.js';
import { rollbackFailure, shownNames } from './rollback-report.js';
import { makeFolder, putInPlace, removeEntry, stage } from './tree-steps.js';

export type ApplyResult = { ok: true } | { ok: false; errors: EditError[] };

/** Long names would overflow NAME_MAX once decorated; the temporary name only needs to be unique. */
const MAX_NAME_IN_TEMP = 100;

const TEMP_SUFFIX = '.patchsmith-tmp';

/**
 * The staged file's name: hidden, tagged with the transaction, in the target's real folder (the
 * check resolved it; the folder is re-checked before the file is created there and renamed).
 */
function tempPathFor(target: string, id: string): string {
  return join(dirname(target), `.${basename(target).slice(0, MAX_NAME_IN_TEMP)}.${id}${TEMP_SUFFIX}`);
}

// A file this transaction staged (its name carries the transaction's id).
const isTempOf = (id: string) => (path: string) => path.endsWith(`.${id}${TEMP_SUFFIX}`);

/** The folders from `dir` up to (not including) the root, innermost first. */
function foldersUpTo(realRoot: string, dir: string): string[] {
  const folders: string[] = [];
  for (let at = dir; isStrictlyInside(at, realRoot); at = dirname(at)) folders.push(at);
  return folders;
}

/** Works out the journal (names of temp files and backups, folders to create) before anything is written. */
async function planJournal(ctx: RootContext, writes: CheckedWrite[]): Promise<Journal> {
  const id = randomHex(12);
  const rel = (abs: string) => relative(ctx.realRoot, abs);
  const createdDirs = new Set<string>();
  const emptiable = new Set<string>();
  const entries: JournalEntry[] = [];
  for (const [index, { write, resolved }] of writes.entries()) {
    const backup = write.before === null ? null : `backup-${index}`;
    if (write.after !== null) {
      for (const dir of resolved.missingDirs) createdDirs.add(rel(dir));
      entries.push({
        path: write.path,
        temp: rel(tempPathFor(resolved.target, id)),
        target: rel(resolved.target),
        created: write.before === null,
        backup,
        restoreTo: backup === null ? null : rel(resolved.target),
        remove: null,
      });
      continue;
    }
    for (const dir of foldersUpTo(ctx.realRoot, dirname(resolved.entry))) emptiable.add(dir);
    const entry = rel(resolved.entry);
    entries.push({
      path: write.path,
      temp: null,
      target: null,
      created: false,
      backup,
      restoreTo: entry,
      remove: entry,
    });
  }
  const dirModes: Record<string, number> = {};
  await runAll(
    [...emptiable].map((dir) => async () => {
      const stats = await io('lstat', dir, () => ctx.fs.lstat(dir));
      // A symlink swapped in since the check: its mode is not the folder's, and nothing may go through it.
      if (!stats.isDirectory()) throw folderSwapped(ctx, dir);
      dirModes[rel(dir)] = permissionBits(stats.mode);
    }),
  );
  const outermostFirst = [...createdDirs].sort((a, b) => a.split('/').length - b.split('/').length);
  const base = relative(ctx.workTree, ctx.realRoot).split(sep).join('/');
  return { version: 1, id, base, createdDirs: outermostFirst, dirModes, entries };
}

/**
 * Backs up an original: a hard link in the transaction folder (the original inode is never written,
 * only replaced, so the link keeps its bytes and mode). Across devices, a copy written aside and
 * renamed, so that a backup is never half there.
 */
async function backUp(fs: TransactionFs, original: string, backup: string): Promise<'linked' | 'copied'> {
  try {
    await fs.link(original, backup);
    return 'linked';
  } catch (error) {
    if (errnoOf(error) !== 'EXDEV') throw new IoFailure('link', original, error);
  }
  const partial = `${backup}.partial`;
  const stats = await io('lstat', original, () => fs.lstat(original));
  if (stats.isSymbolicLink()) {
    const text = await io('readlink', original, () => fs.readlink(original));
    await io('symlink', partial, () => fs.symlink(text, partial));
  } else {
    await io('copyFile', original, () => fs.copyFile(original, partial));
    await io('chmod', partial, () => fs.chmod(partial, permissionBits(stats.mode)));
  }
  await io('rename', partial, () => fs.rename(partial, backup));
  return 'copied';
}

/**
 * Backs up the file a write replaces or removes, and makes sure the backup is that file: a link
 * made through a folder swapped since the check would hold another file, which a rollback must
 * never put into the tree, so it is removed and the transaction stops. (The folder's next check,
 * before the rename or the removal, tells whether the link went through a swap.)
 */
async function backUpChecked(
  ctx: RootContext,
  { original: expected, folder }: CheckedWrite,
  original: string,
  backup: string,
  guard: TreeGuard,
): Promise<void> {
  await checkFolder(ctx, folder, guard.caseInsensitive);
  const how = await backUp(ctx.fs, original, backup);
  const linked = how === 'linked' ? await entryIdentity(ctx.fs, backup) : null;
  if (linked !== null && expected !== null && !sameIdentity(linked, expected)) {
    await io('unlink', backup, () => ctx.fs.unlink(backup));
    throw folderSwapped(ctx, folder.path);
  }
}

/** The folders whose entries the transaction changes (each fsync'd once before the commit point). */
function touchedFolders(realRoot: string, journal: Journal): string[] {
  const inTree = (rel: string) => join(realRoot, rel);
  const changed = journal.entries.flatMap((entry) => [entry.target, entry.remove]);
  const names = [...changed, ...journal.createdDirs].filter((rel): rel is string => rel !== null);
  const folders = new Set(names.map((rel) => dirname(inTree(rel))));
  // A delete may empty folders up to the root, and remove them from their parents.
  for (const entry of journal.entries) {
    if (entry.remove !== null)
      for (const dir of foldersUpTo(realRoot, dirname(inTree(entry.remove)))) folders.add(dirname(dir));
  }
  return [...folders];
}

/**
 * Everything up to the commit point; throws on the first failure, once every call still in flight
 * has settled. Independent steps run concurrently; what must come first still does: the journal
 * (fsync'd) before any change to the tree, folders parent first, every file staged and backed up,
 * then every staged file and the backups' folder fsync'd together, before the first rename;
 * deletes' folders removed deepest first; each folder the renames and removals changed fsync'd
 * once; and the journal removed only after all of that. A file replaced by a folder (or the
 * reverse) is removed first, and what takes its name is created, staged and fsync'd once it is gone.
 */
async function carryOut(
  ctx: RootContext,
  journal: Journal,
  writes: CheckedWrite[],
  guard: TreeGuard,
): Promise<void> {
  const { fs, realRoot, txnDir } = ctx;
  const inTree = (rel: string) => join(realRoot, rel);
  await io('mkdir', txnDir, () => fs.mkdir(txnDir));
  await writeJournal(ctx, journal);
  // Entries that replace a file by a folder (or the reverse) wait for what is in their way to go.
  const clearing = clearingOf(journal);
  const makeFolders = async (dirs: string[]) => {
    for (const level of byDepth(dirs, 'outermost-first')) {
      await runAll(level.map((dir) => () => makeFolder(ctx, inTree(dir), guard)));
    }
  };
  await makeFolders(journal.createdDirs.filter((dir) => !clearing.laterDirs.includes(dir)));
  const staged = new Map<number, FileIdentity>();
  const staging = (later: boolean) =>
    journal.entries.flatMap((entry, index) => {
      const checked = writes[index]!;
      if (entry.temp === null || checked.write.after === null || clearing.laterStaged.has(index) !== later)
        return [];
      const temp = inTree(entry.temp);
      return [async () => staged.set(index, await stage(ctx, checked, temp, guard))];
    });
  // A staged link is not opened to be fsync'd (that would follow it); its folder's fsync keeps it.
  const syncStaged = (later: boolean) =>
    journal.entries.flatMap((entry, index) => {
      const after = writes[index]!.write.after;
      const { temp } = entry;
      if (
        temp === null ||
        after === null ||
        isSymlinkMode(after.mode) ||
        clearing.laterStaged.has(index) !== later
      )
        return [];
      return [() => syncFile(fs, inTree(temp))];
    });
  const backups = journal.entries.flatMap((entry, index) => {
    if (entry.backup === null || entry.restoreTo === null) return [];
    const [original, backup] = [inTree(entry.restoreTo), join(txnDir, entry.backup)];
    return [() => backUpChecked(ctx, writes[index]!, original, backup, guard)];
  });
  await runAll([...staging(false), ...backups]);
  // Every file staged before the first fsync: the file system commits many in flight at once.
  await runAll([...syncStaged(false), () => syncDir(fs, txnDir)]);
  const emptied = new Set<string>();
  const swap = (entry: JournalEntry, index: number) => {
    const checked = writes[index]!;
    if (entry.temp !== null && entry.target !== null) {
      const [from, to] = [inTree(entry.temp), inTree(entry.target)];
      return [() => putInPlace(ctx, checked, from, to, staged.get(index)!, guard)];
    }
    if (entry.remove === null) return [];
    const removed = inTree(entry.remove);
    for (const dir of foldersUpTo(realRoot, dirname(removed))) emptied.add(dir);
    return [() => removeEntry(ctx, checked, removed, join(txnDir, `removed-${index}`), guard)];
  };
  if (clearing.first.size > 0) {
    await runAll([...clearing.first].flatMap((index) => swap(journal.entries[index]!, index)));
    await removeReplacedFolders(ctx, clearing.replacedFolders);
    await makeFolders(clearing.laterDirs);
    await runAll(staging(true));
    await runAll(syncStaged(true));
  }
  await runAll(
    journal.entries.flatMap((entry, index) => (clearing.first.has(index) ? [] : swap(entry, index))),
  );
  for (const level of byDepth([...emptied], 'deepest-first')) {
    await runAll(level.map((dir) => () => rmdirIfEmpty(fs, dir)));
  }
  // The renames and removals durable before the commit point: one fsync per folder they changed.
  await runAll(touchedFolders(realRoot, journal).map((dir) => () => syncDirIfPresent(fs, dir)));
  // The commit point: once the journal is gone, a crash leaves the after state.
  await io('unlink', ctx.journalPath, () => fs.unlink(ctx.journalPath));
}

/** A failure as an error value: a refusal keeps its code, anything else is `IO_ERROR`; `outcome` says what became of the tree. */
function failureOf(ctx: RootContext, error: unknown, outcome: string, shown?: ShownNames): EditError {
  // A refusal from the guarded fs, wrapped by the call that made it.
  const cause = error instanceof IoFailure ? error.cause : error;
  if (!(cause instanceof PatchsmithError)) return ioError(ctx.realRoot, error, outcome, shown);
  const refused = cause.toEditError();
  return { ...refused, message: `${refused.message}; ${outcome}` };
}

/**
 * SPEC §4.4 steps 3-6 for writes already checked under the lock: journal, stage, back up, rename
 * into place, remove, commit. Any failure before the commit point rolls everything back.
 */
export async function runTransaction(ctx: RootContext, writes: CheckedWrite[]): Promise<ApplyResult> {
  if (writes.length === 0) return { ok: true };
  let journal: Journal;
  try {
    journal = await planJournal(ctx, writes);
  } catch (error) {
    return { ok: false, errors: [failureOf(ctx, error, 'nothing was written')] };
  }
  // Every change to the tree, the rollback's included, goes through folders checked just before.
  const guard: TreeGuard = {
    caseInsensitive: await caseInsensitiveAt(ctx.fs, ctx.realRoot),
    unguarded: ctx.fs,
  };
  const guarded: RootContext = { ...ctx, fs: guardedFs(ctx, guard.caseInsensitive, isTempOf(journal.id)) };
  try {
    await carryOut(guarded, journal, writes, guard);
  } catch (error) {
    const shown = shownNames(ctx, journal);
    try {
      await rollBack(guarded, journal);
      await dropTxnDir(guarded);
    } catch (rollbackError) {
      const left = rollbackFailure(ctx, journal, rollbackError);
      return { ok: false, errors: [failureOf(ctx, error, `rolling back failed too: ${left}`, shown)] };
    }
    return { ok: false, errors: [failureOf(ctx, error, 'nothing was changed (rolled back)', shown)] };
  }
  // After the commit point, cleaning up is best effort: the next recover drops what is left.
  await dropTxnDir(guarded).catch(() => {});
  return { ok: true };
}

import { randomBytes } from 'node:crypto';
import { basename, dirname, join, relative } from 'node:path';
import { type EditError, isStrictlyInside, PatchsmithError } from '@patchsmith/core';
import { caseInsensitiveAt } from './case-folding.js';
import type { CheckedWrite } from './check-writes.js';
import type { RootContext } from './context.js';
import { errnoOf, type TransactionFs } from './fs.js';
import {
  checkEntry,
  checkFolder,
  entryIdentity,
  type FileIdentity,
  guardedFs,
} from './guard-folders.js';
import { permissionBits } from './hash.js';
import { IoFailure, io, ioError } from './io-failure.js';
import {
  dropTxnDir,
  type Journal,
  type JournalEntry,
  rmdirIfEmpty,
  syncDir,
  writeDurably,
  writeJournal,
} from './journal.js';
import { byDepth, runAll } from './map-limit.js';
import { rollBack } from './roll-back.js';

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
  const id = randomBytes(6).toString('hex');
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
      dirModes[rel(dir)] = permissionBits(stats.mode);
    }),
  );
  const outermostFirst = [...createdDirs].sort((a, b) => a.split('/').length - b.split('/').length);
  return { version: 1, id, createdDirs: outermostFirst, dirModes, entries };
}

/**
 * Backs up an original: a hard link in the transaction folder (the original inode is never written,
 * only replaced, so the link keeps its bytes and mode). Across devices, a copy written aside and
 * renamed, so that a backup is never half there.
 */
async function backUp(fs: TransactionFs, original: string, backup: string): Promise<void> {
  try {
    await fs.link(original, backup);
    return;
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
}

/** A failed call named after the file the user knows, with the reason only (no temporary name). */
function namingTarget(error: unknown, name: string): unknown {
  if (!(error instanceof IoFailure)) return error;
  const reason = (error.cause as Error | null)?.message?.replace(/, \w+ '[^]*$/, '') ?? String(error.cause);
  return new IoFailure(error.call, name, Object.assign(new Error(reason), { code: error.errno }));
}

/**
 * Writes a write's new content to its staged file, in the folder the check found (re-checked just
 * before the file is created and after it is written): the staged file's identity, for the rename.
 */
async function stage(
  ctx: RootContext,
  { write, folder, resolved }: CheckedWrite,
  temp: string,
  caseInsensitive: boolean,
): Promise<FileIdentity> {
  const after = write.after!;
  await checkFolder(ctx, folder, caseInsensitive);
  try {
    await writeDurably(ctx.fs, temp, after.bytes, permissionBits(after.mode));
  } catch (error) {
    throw namingTarget(error, resolved.target);
  }
  const identity = await entryIdentity(ctx.fs, temp).catch((error) => {
    throw namingTarget(error, resolved.target);
  });
  await checkFolder(ctx, folder, caseInsensitive);
  return identity;
}

/**
 * Renames a staged file over its target. Right before, the folder and the staged file must be the
 * ones checked and written; right after, the folder must be unchanged and the target must be the
 * staged file. Anything else throws, and the transaction rolls back.
 */
async function putInPlace(
  ctx: RootContext,
  { write, folder }: CheckedWrite,
  from: string,
  to: string,
  identity: FileIdentity,
  caseInsensitive: boolean,
): Promise<void> {
  await checkFolder(ctx, folder, caseInsensitive);
  await checkEntry(ctx, from, identity, write.path);
  try {
    await io('rename', to, () => ctx.fs.rename(from, to));
  } catch (error) {
    throw namingTarget(error, to);
  }
  await checkFolder(ctx, folder, caseInsensitive);
  await checkEntry(ctx, to, identity, write.path);
}

/** Removes a deleted file's entry, with its folder checked right before and right after. */
async function removeEntry(
  ctx: RootContext,
  { folder }: CheckedWrite,
  removed: string,
  caseInsensitive: boolean,
): Promise<void> {
  await checkFolder(ctx, folder, caseInsensitive);
  await io('unlink', removed, () => ctx.fs.unlink(removed));
  await checkFolder(ctx, folder, caseInsensitive);
}

/**
 * Everything up to the commit point; throws on the first failure, once every call still in flight
 * has settled. Independent steps run concurrently; what must come first still does: the journal
 * (fsync'd) before any change to the tree, folders parent first, every file staged and backed up
 * (and the backups' folder fsync'd) before the first rename, deletes' folders removed deepest
 * first, and the journal removed only after every change.
 */
async function carryOut(
  ctx: RootContext,
  journal: Journal,
  writes: CheckedWrite[],
  caseInsensitive: boolean,
): Promise<void> {
  const { fs, realRoot, txnDir } = ctx;
  const inTree = (rel: string) => join(realRoot, rel);
  await io('mkdir', txnDir, () => fs.mkdir(txnDir));
  await writeJournal(ctx, journal);
  for (const level of byDepth(journal.createdDirs, 'outermost-first')) {
    await runAll(level.map((dir) => () => io('mkdir', inTree(dir), () => fs.mkdir(inTree(dir)))));
  }
  const staged = new Map<number, FileIdentity>();
  const staging = journal.entries.flatMap((entry, index) => {
    const checked = writes[index]!;
    if (entry.temp === null || checked.write.after === null) return [];
    const temp = inTree(entry.temp);
    return [async () => staged.set(index, await stage(ctx, checked, temp, caseInsensitive))];
  });
  const backups = journal.entries.flatMap((entry) => {
    if (entry.backup === null || entry.restoreTo === null) return [];
    const [original, backup] = [inTree(entry.restoreTo), join(txnDir, entry.backup)];
    return [() => backUp(fs, original, backup)];
  });
  await runAll([...staging, ...backups]);
  await syncDir(fs, txnDir);
  const emptied = new Set<string>();
  const swaps = journal.entries.flatMap((entry, index) => {
    const checked = writes[index]!;
    if (entry.temp !== null && entry.target !== null) {
      const [from, to] = [inTree(entry.temp), inTree(entry.target)];
      return [() => putInPlace(ctx, checked, from, to, staged.get(index)!, caseInsensitive)];
    }
    if (entry.remove === null) return [];
    const removed = inTree(entry.remove);
    for (const dir of foldersUpTo(realRoot, dirname(removed))) emptied.add(dir);
    return [() => removeEntry(ctx, checked, removed, caseInsensitive)];
  });
  await runAll(swaps);
  for (const level of byDepth([...emptied], 'deepest-first')) {
    await runAll(level.map((dir) => () => rmdirIfEmpty(fs, dir)));
  }
  // The commit point: once the journal is gone, a crash leaves the after state.
  await io('unlink', ctx.journalPath, () => fs.unlink(ctx.journalPath));
}

/** A failure as an error value: a refusal keeps its code, anything else is `IO_ERROR`; `outcome` says what became of the tree. */
function failureOf(ctx: RootContext, error: unknown, outcome: string): EditError {
  if (!(error instanceof PatchsmithError)) return ioError(ctx.realRoot, error, outcome);
  const refused = error.toEditError();
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
    return { ok: false, errors: [ioError(ctx.realRoot, error, 'nothing was written')] };
  }
  // Every change to the tree, the rollback's included, goes through folders checked just before.
  const caseInsensitive = await caseInsensitiveAt(ctx.fs, ctx.realRoot);
  const guarded: RootContext = { ...ctx, fs: guardedFs(ctx, caseInsensitive, isTempOf(journal.id)) };
  try {
    await carryOut(guarded, journal, writes, caseInsensitive);
  } catch (error) {
    try {
      await rollBack(guarded, journal);
      await dropTxnDir(guarded);
    } catch (rollbackError) {
      const detail = failureOf(
        ctx,
        rollbackError,
        'the journal is kept; `patchsmith recover` finishes the rollback',
      );
      return {
        ok: false,
        errors: [failureOf(ctx, error, `rolling back failed too: ${detail.message}`)],
      };
    }
    return { ok: false, errors: [failureOf(ctx, error, 'nothing was changed (rolled back)')] };
  }
  // After the commit point, cleaning up is best effort: the next recover drops what is left.
  await dropTxnDir(guarded).catch(() => {});
  return { ok: true };
}

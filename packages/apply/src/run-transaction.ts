import { randomBytes } from 'node:crypto';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { EditError } from '@patchsmith/grammar';
import type { CheckedWrite } from './check-writes.js';
import type { RootContext } from './context.js';
import { errnoOf, type TransactionFs } from './fs.js';
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
import { rollbackFailure, shownNames } from './rollback-report.js';

export type ApplyResult = { ok: true } | { ok: false; errors: EditError[] };

/** Long names would overflow NAME_MAX once decorated; the temporary name only needs to be unique. */
const MAX_NAME_IN_TEMP = 100;

/** The staged file's name: hidden, beside its target, tagged with the transaction. */
function tempPathFor(target: string, id: string): string {
  return join(dirname(target), `.${basename(target).slice(0, MAX_NAME_IN_TEMP)}.${id}.patchsmith-tmp`);
}

// `path` lies below `root` (and is not the root itself).
function isStrictlyInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

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
  const base = relative(ctx.workTree, ctx.realRoot).split(sep).join('/');
  return { version: 1, id, base, createdDirs: outermostFirst, dirModes, entries };
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

/**
 * Everything up to the commit point; throws on the first failure, once every call still in flight
 * has settled. Independent steps run concurrently; what must come first still does: the journal
 * (fsync'd) before any change to the tree, folders parent first, every file staged and backed up
 * (and the backups' folder fsync'd) before the first rename, deletes' folders removed deepest
 * first, and the journal removed only after every change.
 */
async function carryOut(ctx: RootContext, journal: Journal, writes: CheckedWrite[]): Promise<void> {
  const { fs, realRoot, txnDir } = ctx;
  const inTree = (rel: string) => join(realRoot, rel);
  await io('mkdir', txnDir, () => fs.mkdir(txnDir));
  await writeJournal(ctx, journal);
  for (const level of byDepth(journal.createdDirs, 'outermost-first')) {
    await runAll(level.map((dir) => () => io('mkdir', inTree(dir), () => fs.mkdir(inTree(dir)))));
  }
  const staging = journal.entries.flatMap((entry, index) => {
    const after = writes[index]!.write.after;
    if (entry.temp === null || after === null) return [];
    const temp = inTree(entry.temp);
    return [() => writeDurably(fs, temp, after.bytes, permissionBits(after.mode))];
  });
  const backups = journal.entries.flatMap((entry) => {
    if (entry.backup === null || entry.restoreTo === null) return [];
    const [original, backup] = [inTree(entry.restoreTo), join(txnDir, entry.backup)];
    return [() => backUp(fs, original, backup)];
  });
  await runAll([...staging, ...backups]);
  await syncDir(fs, txnDir);
  const emptied = new Set<string>();
  const swaps = journal.entries.flatMap((entry) => {
    if (entry.temp !== null && entry.target !== null) {
      const [from, to] = [inTree(entry.temp), inTree(entry.target)];
      return [() => io('rename', from, () => fs.rename(from, to))];
    }
    if (entry.remove === null) return [];
    const removed = inTree(entry.remove);
    for (const dir of foldersUpTo(realRoot, dirname(removed))) emptied.add(dir);
    return [() => io('unlink', removed, () => fs.unlink(removed))];
  });
  await runAll(swaps);
  for (const level of byDepth([...emptied], 'deepest-first')) {
    await runAll(level.map((dir) => () => rmdirIfEmpty(fs, dir)));
  }
  // The commit point: once the journal is gone, a crash leaves the after state.
  await io('unlink', ctx.journalPath, () => fs.unlink(ctx.journalPath));
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
  try {
    await carryOut(ctx, journal, writes);
  } catch (error) {
    const shown = shownNames(ctx, journal);
    try {
      await rollBack(ctx, journal);
      await dropTxnDir(ctx);
    } catch (rollbackError) {
      const left = rollbackFailure(ctx, journal, rollbackError);
      return { ok: false, errors: [ioError(ctx.realRoot, error, `rolling back failed too: ${left}`, shown)] };
    }
    return { ok: false, errors: [ioError(ctx.realRoot, error, 'nothing was changed (rolled back)', shown)] };
  }
  // After the commit point, cleaning up is best effort: the next recover drops what is left.
  await dropTxnDir(ctx).catch(() => {});
  return { ok: true };
}

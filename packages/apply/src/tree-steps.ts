import { dirname } from 'node:path';
import { isSymlinkMode, PatchsmithError } from '@patchsmith/core';
import type { CheckedWrite } from './check-writes.js';
import type { RootContext } from './context.js';
import { errnoOf } from './fs.js';
import {
  checkEntry,
  checkFolder,
  entryIdentity,
  type FileIdentity,
  folderSwapped,
  isStillReal,
  sameIdentity,
  type TreeGuard,
  type WriteFolder,
} from './guard-folders.js';
import { IoFailure, io } from './io-failure.js';
import { writeStaged } from './journal.js';
import { permissionBits } from './mode-bits.js';
import { stageLink } from './stage-link.js';

/**
 * The transaction's steps that change the tree, each with the folder it goes through checked right
 * before and right after (see guard-folders.ts). What a swap between a check and the call itself
 * misdirected outside the root is put back where the step can tell it is ours (a staged file, by
 * its name; a file taken aside, by its identity); the rest is the window Node leaves open.
 */

/** A failed call named after the file the user knows, with the reason only (no temporary name). */
function namingTarget(error: unknown, name: string): unknown {
  if (!(error instanceof IoFailure)) return error;
  // A refusal of the guarded fs says it all.
  if (error.cause instanceof PatchsmithError) return error.cause;
  const reason =
    (error.cause as Error | null)?.message?.replace(/, \w+ '[\s\S]*$/, '') ?? String(error.cause);
  return new IoFailure(error.call, name, Object.assign(new Error(reason), { code: error.errno }));
}

/** Why a call on `name` failed: the folder's swap when it was swapped (that says more), else the call's own reason. */
async function explained(
  ctx: RootContext,
  folder: WriteFolder,
  guard: TreeGuard,
  error: unknown,
  name: string,
): Promise<unknown> {
  await checkFolder(ctx, folder, guard.caseInsensitive);
  return namingTarget(error, name);
}

/**
 * Creates a folder the plan needs, and checks that it is where it should be. (A swap between the
 * check and the mkdir call itself could make an empty folder elsewhere; that one cannot be told
 * from a folder that was there before, so it is left alone.)
 */
export async function makeFolder(ctx: RootContext, dir: string, guard: TreeGuard): Promise<void> {
  await io('mkdir', dir, () => ctx.fs.mkdir(dir));
  if (!(await isStillReal(ctx.fs, dir, guard.caseInsensitive))) throw folderSwapped(ctx, dirname(dir));
}

/**
 * Writes a write's new content to its staged file, in the folder the check found (re-checked just
 * before the file is created; the next check of the folder, before the backup or the rename, tells
 * whether the write went through a swap): the staged file's identity, for the rename. The file is
 * fsync'd later, with all the others (`syncFile`).
 */
export async function stage(
  ctx: RootContext,
  { write, folder, resolved }: CheckedWrite,
  temp: string,
  guard: TreeGuard,
): Promise<FileIdentity> {
  const after = write.after!;
  await checkFolder(ctx, folder, guard.caseInsensitive);
  try {
    // Unguarded: the guard would look up the real path of the folder just checked once more.
    if (isSymlinkMode(after.mode)) await stageLink(guard.unguarded, temp, after.bytes);
    else await writeStaged(guard.unguarded, temp, after.bytes, permissionBits(after.mode));
    return await entryIdentity(ctx.fs, temp);
  } catch (error) {
    throw await explained(ctx, folder, guard, error, resolved.target);
  }
}

/**
 * Renames a staged file over its target. Right before, the folder and the staged file must be the
 * ones checked and written; right after, the folder must be unchanged and the target must be the
 * staged file. Anything else throws, and the transaction rolls back.
 */
export async function putInPlace(
  ctx: RootContext,
  { write, folder }: CheckedWrite,
  from: string,
  to: string,
  identity: FileIdentity,
  guard: TreeGuard,
): Promise<void> {
  await checkEntry(ctx, from, identity, write.path);
  await checkFolder(ctx, folder, guard.caseInsensitive);
  try {
    // Unguarded: both names are in the folder just checked, which the guard would look up again.
    await io('rename', to, () => guard.unguarded.rename(from, to));
  } catch (error) {
    throw await explained(ctx, folder, guard, error, to);
  }
  await checkFolder(ctx, folder, guard.caseInsensitive);
  await checkEntry(ctx, to, identity, write.path);
}

/**
 * Removes a deleted file's entry: taken aside into the transaction folder first, so that an entry
 * a swapped folder led to (another file than the one checked) is put back where it came from and
 * the transaction stops. Across devices it cannot be taken aside and is unlinked in place.
 */
export async function removeEntry(
  ctx: RootContext,
  { folder, original }: CheckedWrite,
  removed: string,
  aside: string,
  guard: TreeGuard,
): Promise<void> {
  await checkFolder(ctx, folder, guard.caseInsensitive);
  try {
    await ctx.fs.rename(removed, aside);
  } catch (error) {
    if (errnoOf(error) !== 'EXDEV')
      throw await explained(ctx, folder, guard, new IoFailure('unlink', removed, error), removed);
    await io('unlink', removed, () => ctx.fs.unlink(removed));
    await checkFolder(ctx, folder, guard.caseInsensitive);
    return;
  }
  const taken = await entryIdentity(ctx.fs, aside);
  if (original !== null && !sameIdentity(taken, original)) {
    await guard.unguarded.rename(aside, removed).catch(() => {});
    throw folderSwapped(ctx, folder.path);
  }
  await io('unlink', aside, () => ctx.fs.unlink(aside));
  await checkFolder(ctx, folder, guard.caseInsensitive);
}

import { dirname, join, relative, sep } from 'node:path';
import { byDepth, runAll } from '@patchsmith/core';
import type { RootContext } from './context.js';
import { isMissing, lstatOrNull } from './fs.js';
import { IoFailure, io } from './io-failure.js';
import { type Journal, rmdirIfEmpty, unlinkIfPresent } from './journal.js';
import { permissionBits } from './mode-bits.js';

/** Creates the missing folders on the way to `path` (inside the root). */
async function ensureParents(ctx: RootContext, path: string): Promise<void> {
  const rel = relative(ctx.realRoot, dirname(path));
  if (rel === '') return;
  let dir = ctx.realRoot;
  for (const segment of rel.split(sep)) {
    dir = join(dir, segment);
    if ((await io('lstat', dir, () => lstatOrNull(ctx.fs, dir))) !== null) continue;
    await io('mkdir', dir, async () => {
      try {
        await ctx.fs.mkdir(dir);
      } catch (error) {
        if ((error as { code?: string }).code !== 'EEXIST') throw error;
      }
    });
  }
}

/** Renames a backup over its original place, recreating the folders a delete removed; absent: done already. */
async function restore(ctx: RootContext, backup: string, original: string): Promise<void> {
  try {
    await ctx.fs.rename(backup, original);
    return;
  } catch (error) {
    if (!isMissing(error)) throw new IoFailure('rename', backup, error);
  }
  // ENOENT: the backup went back on an earlier run, or a folder on the way to the original is gone.
  if ((await io('lstat', backup, () => lstatOrNull(ctx.fs, backup))) === null) return;
  await ensureParents(ctx, original);
  await io('rename', backup, () => ctx.fs.rename(backup, original));
}

/**
 * Removes a file the transaction created; a folder there is the one it was to replace (a folder
 * replaced by a file, not yet removed), which is not the transaction's to remove.
 */
async function unlinkCreated(ctx: RootContext, target: string): Promise<void> {
  // A path that cannot be looked at (too long, gone) cannot be a folder there: unlinkIfPresent judges it.
  if ((await ctx.fs.lstat(target).catch(() => null))?.isDirectory()) return;
  await unlinkIfPresent(ctx.fs, target);
}

/**
 * Puts the before state back from a journal, whatever point the transaction reached: staged files,
 * created files and created folders go, then every backup still in the transaction folder is
 * renamed over its original place (recreating the folders a delete removed, with their modes).
 * Each step is idempotent, so a rollback that is itself interrupted is finished by running it again.
 * The steps of one phase run concurrently; the phases run in order, and a failed phase stops the
 * rollback once its calls in flight have settled.
 */
export async function rollBack(ctx: RootContext, journal: Journal): Promise<void> {
  const { fs, realRoot, txnDir } = ctx;
  const inTree = (rel: string) => join(realRoot, rel);
  await runAll(
    journal.entries.flatMap((entry) => {
      const temp = entry.temp;
      return temp === null ? [] : [() => unlinkIfPresent(fs, inTree(temp))];
    }),
  );
  await runAll(
    journal.entries.flatMap((entry) => {
      const target = entry.target;
      return entry.created && target !== null ? [() => unlinkCreated(ctx, inTree(target))] : [];
    }),
  );
  // Before the backups: a folder created where a file was (a file replaced by a folder) goes first.
  for (const level of byDepth(journal.createdDirs, 'deepest-first')) {
    await runAll(level.map((dir) => () => rmdirIfEmpty(fs, inTree(dir))));
  }
  await runAll(
    journal.entries.flatMap((entry) => {
      const { backup, restoreTo } = entry;
      if (backup === null || restoreTo === null) return [];
      return [() => restore(ctx, join(txnDir, backup), inTree(restoreTo))];
    }),
  );
  await runAll(
    Object.entries(journal.dirModes).map(([rel, mode]) => async () => {
      const dir = inTree(rel);
      const stats = await io('lstat', dir, () => lstatOrNull(fs, dir));
      if (stats?.isDirectory() && permissionBits(stats.mode) !== mode) {
        await io('chmod', dir, () => fs.chmod(dir, mode));
      }
    }),
  );
}

import { dirname, join, relative, sep } from 'node:path';
import type { RootContext } from './context.js';
import { lstatOrNull } from './fs.js';
import { permissionBits } from './hash.js';
import { io } from './io-failure.js';
import { type Journal, rmdirIfEmpty, unlinkIfPresent } from './journal.js';

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

/**
 * Puts the before state back from a journal, whatever point the transaction reached: staged files
 * and created files go, every backup still in the transaction folder is renamed over its original
 * place (recreating the folders a delete removed, with their modes), and created folders go.
 * Each step is idempotent, so a rollback that is itself interrupted is finished by running it again.
 */
export async function rollBack(ctx: RootContext, journal: Journal): Promise<void> {
  const { fs, realRoot, txnDir } = ctx;
  const inTree = (rel: string) => join(realRoot, rel);
  for (const entry of journal.entries) {
    if (entry.temp !== null) await unlinkIfPresent(fs, inTree(entry.temp));
  }
  for (const entry of journal.entries) {
    if (entry.created && entry.target !== null) await unlinkIfPresent(fs, inTree(entry.target));
  }
  for (const entry of journal.entries) {
    if (entry.backup === null || entry.restoreTo === null) continue;
    const backup = join(txnDir, entry.backup);
    if ((await io('lstat', backup, () => lstatOrNull(fs, backup))) === null) continue;
    const original = inTree(entry.restoreTo);
    await ensureParents(ctx, original);
    await io('rename', backup, () => fs.rename(backup, original));
  }
  for (const dir of [...journal.createdDirs].reverse()) await rmdirIfEmpty(fs, inTree(dir));
  for (const [rel, mode] of Object.entries(journal.dirModes)) {
    const dir = inTree(rel);
    const stats = await io('lstat', dir, () => lstatOrNull(fs, dir));
    if (stats?.isDirectory() && permissionBits(stats.mode) !== mode) {
      await io('chmod', dir, () => fs.chmod(dir, mode));
    }
  }
}

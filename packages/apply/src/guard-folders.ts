import { dirname } from 'node:path';
import { isInsidePath, isStrictlyInside, PatchsmithError } from '@patchsmith/core';
import { errnoOf, type TransactionFs, type TransactionStats } from './fs.js';
import { displayPath, io } from './io-failure.js';
import type { PathContext } from './resolve-path.js';

/**
 * Node has no openat/renameat: every call names its file by a path from the root, and a folder on
 * that path can be swapped for a symlink between a check and the call. These checks make that
 * window as short as Node allows: a folder is checked right before and right after each call that
 * writes through it, and a change stops the transaction (which then rolls back).
 */

/** How one transaction guards the tree: the volume's case folding, and the fs without the guard (to undo what a swap misdirected). */
export interface TreeGuard {
  caseInsensitive: boolean;
  unguarded: TransactionFs;
}

/** A file's identity: the same device and inode, whatever name reaches it. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

/** The real folder a write lands in, as the check found it. */
export interface WriteFolder {
  /** The folder's real path (it may not exist yet: the transaction creates it). */
  path: string;
  /** The deepest folder on the way that existed when checked (`path` itself when it did). */
  anchor: string;
  /** `anchor`'s identity then. */
  identity: FileIdentity;
}

export const identityOf = (stats: TransactionStats): FileIdentity => ({ dev: stats.dev, ino: stats.ino });
export const sameIdentity = (a: FileIdentity, b: FileIdentity) => a.dev === b.dev && a.ino === b.ino;

// Two real paths name the same place (folding case where the volume does).
const samePlace = (a: string, b: string, caseInsensitive: boolean) =>
  a === b || (caseInsensitive && a.toLowerCase() === b.toLowerCase());

/** Records where a write lands, for the checks around its rename. */
export async function recordFolder(fs: TransactionFs, path: string, anchor: string): Promise<WriteFolder> {
  const stats = await io('stat', anchor, () => fs.stat(anchor));
  return { path, anchor, identity: identityOf(stats) };
}

/** The refusal when a folder of the tree is no longer the one checked. */
export function folderSwapped(ctx: PathContext, folder: string): PatchsmithError {
  const name = displayPath(ctx.realRoot, folder);
  return new PatchsmithError(
    'PATH_OUTSIDE_ROOT',
    `${name} changed while the patch was being applied (a symbolic link or another folder was swapped in)`,
    { path: name },
  );
}

/** Throws `PATH_OUTSIDE_ROOT` unless the folder still has its real path and its anchor its identity. */
export async function checkFolder(
  ctx: PathContext,
  folder: WriteFolder,
  caseInsensitive: boolean,
): Promise<void> {
  const { fs } = ctx;
  const [real, anchor] = await Promise.all([
    isStillReal(fs, folder.path, caseInsensitive),
    fs.stat(folder.anchor).catch(() => null),
  ]);
  if (!real || anchor === null || !sameIdentity(identityOf(anchor), folder.identity)) {
    throw folderSwapped(ctx, folder.path);
  }
}

/** Whether `path` is still its own real path (no symlink on the way); false when it is gone. */
export async function isStillReal(
  fs: TransactionFs,
  path: string,
  caseInsensitive: boolean,
): Promise<boolean> {
  const real = await fs.realpath(path).catch(() => null);
  return real !== null && samePlace(real, path, caseInsensitive);
}

/** The identity of the entry at `path` (not followed), which a later check compares with. */
export async function entryIdentity(fs: TransactionFs, path: string): Promise<FileIdentity> {
  return identityOf(await io('lstat', path, () => fs.lstat(path)));
}

/** Throws `STALE` (naming `name`) unless the entry at `path` is still the file `expected` identifies. */
export async function checkEntry(
  ctx: PathContext,
  path: string,
  expected: FileIdentity,
  name: string,
): Promise<void> {
  const stats = await ctx.fs.lstat(path).catch(() => null);
  if (stats === null || !sameIdentity(identityOf(stats), expected)) {
    throw new PatchsmithError(
      'STALE',
      `the new content of ${name} was replaced while the patch was being applied`,
      {
        path: name,
      },
    );
  }
}

/**
 * `fs` with every call that changes the tree preceded by a check that the folder it names is still
 * where it was (its real path is the path itself): a folder swapped for a symlink stops the call
 * with `PATH_OUTSIDE_ROOT`, so neither the transaction nor its rollback writes through it.
 * Private state is left to its own checks; unlinking our own staged files (`isOwnTemp`) is not
 * stopped, so a staged file that a swap put outside the root is still cleaned up.
 */
export function guardedFs(
  ctx: PathContext,
  caseInsensitive: boolean,
  isOwnTemp: (path: string) => boolean,
): TransactionFs {
  const { fs } = ctx;
  // The path lies in the tree (not the root itself, not private state), so its folder is checked.
  const inTree = (path: string) =>
    isStrictlyInside(path, ctx.realRoot) && !ctx.privateDirs.some((dir) => isInsidePath(path, dir));
  async function unmoved(...paths: string[]): Promise<void> {
    for (const path of paths) {
      if (!inTree(path)) continue;
      const folder = dirname(path);
      let real: string;
      try {
        real = await fs.realpath(folder);
      } catch (error) {
        // A folder that is not there cannot lead anywhere; the call itself reports it.
        if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') continue;
        throw error;
      }
      if (!samePlace(real, folder, caseInsensitive)) throw folderSwapped(ctx, folder);
    }
  }
  const guard =
    <A extends unknown[], R>(paths: (...args: A) => string[], run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await unmoved(...paths(...args));
      return run(...args);
    };
  return {
    ...fs,
    open: guard(
      (path, flags) => (/[wax+]/.test(flags) ? [path] : []),
      (path: string, flags: string, mode?: number) => fs.open(path, flags, mode),
    ),
    rename: guard(
      (from, to) => [from, to],
      (from: string, to: string) => fs.rename(from, to),
    ),
    unlink: guard(
      (path) => (isOwnTemp(path) ? [] : [path]),
      (path: string) => fs.unlink(path),
    ),
    mkdir: guard(
      (path) => [path],
      (path: string, options?: { recursive?: boolean }) => fs.mkdir(path, options),
    ),
    rmdir: guard(
      (path) => [path],
      (path: string) => fs.rmdir(path),
    ),
    chmod: guard(
      (path) => [path],
      (path: string, mode: number) => fs.chmod(path, mode),
    ),
    link: guard(
      (from, to) => [from, to],
      (from: string, to: string) => fs.link(from, to),
    ),
    copyFile: guard(
      (from, to) => [from, to],
      (from: string, to: string) => fs.copyFile(from, to),
    ),
    symlink: guard(
      (_target, path) => [path],
      (target: string, path: string) => fs.symlink(target, path),
    ),
  };
}

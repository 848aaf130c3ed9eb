import { IO_CONCURRENCY, MAX_FILE_BYTES, mapLimit, SYMLINK_MODE } from '@patchsmith/core';
import type { FileState } from '@patchsmith/planner';
import { openRoot } from './context.js';
import { defaultFs, type TransactionFs, type TransactionStats } from './fs.js';
import { asPatchsmithError, IoFailure, io } from './io-failure.js';

import { permissionBits } from './mode-bits.js';
import { type PathContext, resolvePath, treeName, withLookupCache } from './resolve-path.js';

export interface ReadFilesOptions {
  fs?: TransactionFs;
  /**
   * Paths to read as symbolic links (the patch changes the link itself, git's mode 120000,
   * `linkPaths` of the planner): a link there is read as its target text with `SYMLINK_MODE`,
   * never followed. A regular file there is read as usual.
   */
  links?: readonly string[];
}

/**
 * Reads one path as the planner wants it described: a file's bytes and what its stat said. No
 * hash: the transaction compares bytes, and the plan hashes a file only when asked (a snapshot).
 */
async function readOne(ctx: PathContext, path: string, asLink: boolean): Promise<FileState> {
  try {
    const resolved = await resolvePath(ctx, path, { followLast: !asLink });
    if (!resolved.ok) return { kind: 'refused', code: resolved.code, message: resolved.message };
    if (resolved.kind === 'directory') return { kind: 'directory' };
    const { target } = resolved;
    const real = treeName(ctx, target);
    const named = real === resolved.rel ? {} : { realPath: real };
    if (resolved.kind === 'missing') {
      const below = resolved.blockedBy === undefined ? {} : { belowFile: treeName(ctx, resolved.blockedBy) };
      return { kind: 'missing', ...named, ...below };
    }
    if (resolved.link) return readLink(ctx, target, resolved.stats!);
    const stats = resolved.stats ?? (await io('stat', target, () => ctx.fs.stat(target)));
    if (stats.size > MAX_FILE_BYTES) {
      const message = `${path} is ${stats.size} bytes, larger than the ${MAX_FILE_BYTES} bytes patchsmith edits`;
      return { kind: 'refused', code: 'TOO_LARGE', message };
    }
    const bytes = await io('readFile', target, () => ctx.fs.readFile(target));
    const { dev, ino, size, mtimeMs, mode } = stats;
    const stat = { dev, ino, size, mtimeMs, mode };
    return { kind: 'file', bytes, mode: permissionBits(mode), stat, ...named };
  } catch (error) {
    const message = error instanceof IoFailure ? error.message : String(error);
    return { kind: 'refused', code: 'IO_ERROR', message: `cannot read ${path}: ${message}` };
  }
}

/** A symbolic link as the planner sees one: its target as bytes, `SYMLINK_MODE`, its own stat. */
async function readLink(ctx: PathContext, link: string, stats: TransactionStats): Promise<FileState> {
  const text = await io('readlink', link, () => ctx.fs.readlink(link));
  const { dev, ino, size, mtimeMs, mode } = stats;
  return {
    kind: 'file',
    bytes: encoder.encode(text),
    mode: SYMLINK_MODE,
    stat: { dev, ino, size, mtimeMs, mode },
  };
}

const encoder = new TextEncoder();

/**
 * Reads canonical relative paths for the planner (SPEC §3 path policy). A symlink inside the root
 * is followed to its target's content (and its real path given as `realPath`, for the permission rules); one that leads out of the root is `PATH_OUTSIDE_ROOT`,
 * into `.git/` or private state `PATH_INVALID`; a path below a file is missing, with `belowFile`.
 * The map's keys are the paths as given. Throws `IO_ERROR` only when the root cannot be resolved.
 * Paths are read concurrently (a bounded number at a time).
 */
export async function readFiles(
  root: string,
  paths: readonly string[],
  options: ReadFilesOptions = {},
): Promise<Map<string, FileState>> {
  let ctx: PathContext;
  try {
    ctx = withLookupCache(await openRoot(root, options.fs ?? defaultFs));
  } catch (error) {
    throw asPatchsmithError(error);
  }
  const unique = [...new Set(paths)];
  // readOne answers every failure as a value, so the batch never rejects.
  const links = new Set(options.links ?? []);
  const read = await mapLimit(unique, IO_CONCURRENCY, (path) => readOne(ctx, path, links.has(path)));
  return new Map(unique.map((path, index) => [path, read[index]!]));
}

import { IO_CONCURRENCY, mapLimit } from '@patchsmith/core';
import type { FileState } from '@patchsmith/planner';
import { openRoot } from './context.js';
import { defaultFs, type TransactionFs } from './fs.js';
import { asPatchsmithError, IoFailure, io } from './io-failure.js';
import { permissionBits } from './mode-bits.js';
import { type PathContext, resolvePath, treeName, withLookupCache } from './resolve-path.js';

export interface ReadFilesOptions {
  fs?: TransactionFs;
}

/**
 * Reads one path as the planner wants it described: a file's bytes and what its stat said. No
 * hash: the transaction compares bytes, and the plan hashes a file only when asked (a snapshot).
 */
async function readOne(ctx: PathContext, path: string): Promise<FileState> {
  try {
    const resolved = await resolvePath(ctx, path);
    if (!resolved.ok) return { kind: 'refused', code: resolved.code, message: resolved.message };
    if (resolved.kind === 'directory') return { kind: 'directory' };
    const { target } = resolved;
    const real = treeName(ctx, target);
    const named = real === resolved.rel ? {} : { realPath: real };
    if (resolved.kind === 'missing') {
      const below = resolved.blockedBy === undefined ? {} : { belowFile: treeName(ctx, resolved.blockedBy) };
      return { kind: 'missing', ...named, ...below };
    }
    const stats = resolved.stats ?? (await io('stat', target, () => ctx.fs.stat(target)));
    const bytes = await io('readFile', target, () => ctx.fs.readFile(target));
    const { dev, ino, size, mtimeMs, mode } = stats;
    const stat = { dev, ino, size, mtimeMs, mode };
    return { kind: 'file', bytes, mode: permissionBits(mode), stat, ...named };
  } catch (error) {
    const message = error instanceof IoFailure ? error.message : String(error);
    return { kind: 'refused', code: 'IO_ERROR', message: `cannot read ${path}: ${message}` };
  }
}

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
  const read = await mapLimit(unique, IO_CONCURRENCY, (path) => readOne(ctx, path));
  return new Map(unique.map((path, index) => [path, read[index]!]));
}

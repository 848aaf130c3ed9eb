import { join } from 'node:path';
import { hashBytes, PatchsmithError, SYMLINK_MODE } from '@patchsmith/core';
import type { FileState } from '@patchsmith/planner';
import type { SnapshotFs } from './fs.js';

// The path, or a folder on the way to it, does not exist.
const isMissingError = (code: unknown) => code === 'ENOENT';
// A folder on the way to the path is a file.
const isNotADirectoryError = (code: unknown) => code === 'ENOTDIR';

const errorCode = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** A path's state as `readDiskState` found it: a file always with its hash. */
export type DiskState =
  | Exclude<FileState, { kind: 'file' }>
  | (Extract<FileState, { kind: 'file' }> & { hash: string });

/**
 * What is at `path` (relative to `root`) right now, as the planner describes a path (a file's
 * hash computed here, once, for whoever compares it and for the plan made from it). Follows
 * symlinks, as the transaction's reader does, so a snapshot records what a write goes through to;
 * `asLink`: a write of the link itself (git's mode 120000), read as its target text.
 */
export async function readDiskState(
  fs: SnapshotFs,
  root: string,
  path: string,
  asLink = false,
): Promise<DiskState> {
  const abs = join(root, path);
  try {
    if (asLink) {
      const link = await readLinkAt(fs, abs);
      if (link !== null) return link;
    }
    const stats = await fs.promises.stat(abs);
    if (stats.isDirectory()) return { kind: 'directory' };
    if (!stats.isFile()) {
      return { kind: 'refused', code: 'NOT_A_FILE', message: `${path} is not a regular file` };
    }
    const read = await fs.promises.readFile(abs);
    const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
    return { kind: 'file', bytes, mode: stats.mode & 0o7777, hash: hashBytes(bytes) };
  } catch (error) {
    const code = errorCode(error);
    if (isMissingError(code)) return { kind: 'missing' };
    if (isNotADirectoryError(code)) {
      const belowFile = await fileOnTheWay(fs, root, path);
      if (belowFile !== null) return { kind: 'missing', belowFile };
      return { kind: 'refused', code: 'NOT_A_FILE', message: `a folder on the way to ${path} is a file` };
    }
    throw new PatchsmithError('IO_ERROR', `cannot read ${path}: ${(error as Error).message}`, { path });
  }
}

/** The first folder on the way to `path` that is a file (a file the apply put where a folder was), or null. */
async function fileOnTheWay(fs: SnapshotFs, root: string, path: string): Promise<string | null> {
  const segments = path.split('/');
  for (let end = 1; end < segments.length; end++) {
    const folder = segments.slice(0, end).join('/');
    const stats = await fs.promises.stat(join(root, folder)).catch(() => null);
    if (stats === null) return null;
    if (!stats.isDirectory()) return stats.isFile() ? folder : null;
  }
  return null;
}

/** The symbolic link at `abs` as a file state (its target as bytes, `SYMLINK_MODE`), or null when none is there. */
async function readLinkAt(fs: SnapshotFs, abs: string): Promise<DiskState | null> {
  const stats = (await fs.promises.lstat(abs).catch(() => null)) as { isSymbolicLink(): boolean } | null;
  if (!stats?.isSymbolicLink() || fs.promises.readlink === undefined) return null;
  const readlink = fs.promises.readlink as unknown as (path: string) => Promise<string>;
  const bytes = new TextEncoder().encode(await readlink(abs));
  return { kind: 'file', bytes, mode: SYMLINK_MODE, hash: hashBytes(bytes) };
}

import { join } from 'node:path';
import { PatchsmithError } from '@patchsmith/core';
import type { FileState } from '@patchsmith/planner';
import type { SnapshotFs } from './fs.js';

// The path, or a folder on the way to it, does not exist.
const isMissingError = (code: unknown) => code === 'ENOENT';
// A folder on the way to the path is a file.
const isNotADirectoryError = (code: unknown) => code === 'ENOTDIR';

const errorCode = (error: unknown) => (error as { code?: unknown } | null)?.code;

/**
 * What is at `path` (relative to `root`) right now, as the planner describes a path. Follows
 * symlinks, as the transaction's reader does, so a snapshot records what a write goes through to.
 */
export async function readDiskState(fs: SnapshotFs, root: string, path: string): Promise<FileState> {
  const abs = join(root, path);
  try {
    const stats = await fs.promises.stat(abs);
    if (stats.isDirectory()) return { kind: 'directory' };
    if (!stats.isFile()) {
      return { kind: 'refused', code: 'NOT_A_FILE', message: `${path} is not a regular file` };
    }
    const bytes = await fs.promises.readFile(abs);
    return {
      kind: 'file',
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      mode: stats.mode & 0o7777,
    };
  } catch (error) {
    const code = errorCode(error);
    if (isMissingError(code)) return { kind: 'missing' };
    if (isNotADirectoryError(code)) {
      return { kind: 'refused', code: 'NOT_A_FILE', message: `a folder on the way to ${path} is a file` };
    }
    throw new PatchsmithError('IO_ERROR', `cannot read ${path}: ${(error as Error).message}`, { path });
  }
}

import * as nodeFs from 'node:fs/promises';
import type { StateDirFs } from '@patchsmith/core';

/** What the transaction needs to know about a directory entry. */
export interface TransactionStats {
  /** The device and inode: which file this is, whatever name reached it. */
  dev: number;
  ino: number;
  mode: number;
  mtimeMs: number;
  size: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** An open file: the transaction writes, sets the mode and fsyncs through it. */
export interface TransactionFileHandle {
  writeFile(data: Uint8Array | string): Promise<void>;
  chmod(mode: number): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Every file-system call the transaction makes, so a test can wrap it and fail any one call.
 * `node:fs/promises` satisfies it. Mutating calls: `open` with a write flag, the handle's
 * `writeFile` / `chmod` / `sync`, `rename`, `unlink`, `mkdir`, `rmdir`, `chmod`, `link`,
 * `copyFile`, `symlink`.
 */
export interface TransactionFs extends StateDirFs {
  stat(path: string): Promise<TransactionStats>;
  lstat(path: string): Promise<TransactionStats>;
  realpath(path: string): Promise<string>;
  readlink(path: string): Promise<string>;
  readdir(path: string): Promise<string[]>;
  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  open(path: string, flags: string, mode?: number): Promise<TransactionFileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<unknown>;
  rmdir(path: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  link(existing: string, newPath: string): Promise<void>;
  copyFile(from: string, to: string): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
}

export const defaultFs: TransactionFs = nodeFs;

/** The `code` of a Node system error (`ENOENT`, ...), if it has one. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

// Nothing is there (or a folder on the way is missing).
export const isMissing = (error: unknown) => errnoOf(error) === 'ENOENT';

/** lstat that answers null for a path that does not exist (or whose parent is not a folder). */
export async function lstatOrNull(fs: TransactionFs, path: string): Promise<TransactionStats | null> {
  try {
    return await fs.lstat(path);
  } catch (error) {
    if (isMissing(error) || errnoOf(error) === 'ENOTDIR') return null;
    throw error;
  }
}

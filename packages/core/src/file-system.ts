import * as nodeFs from 'node:fs/promises';
import type { StateDirFs } from './git-dir.js';

/** What patchsmith needs to know about a directory entry. */
export interface FsStats {
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

/** An open file: a write goes through it, sets the mode and fsyncs. */
export interface FsFileHandle {
  writeFile(data: Uint8Array | string): Promise<void>;
  /**
   * Node's `FileHandle.read`: up to `length` bytes at `position` into `buffer` from `offset`.
   * Optional: with it a large file is compared with the bytes planned piece by piece, without
   * a second whole copy in memory; without it the file is read whole.
   */
  read?(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }>;
  chmod(mode: number): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Every file-system call patchsmith makes on a root: reading the files an edit touches, the
 * config, the lock, the journal, the transaction and its recovery, `view`. `node:fs/promises`
 * satisfies it; a host may pass its own (an editor's unsaved buffers, a remote tree, a test's
 * faults). Errors are Node's: an `Error` whose `code` is the errno name (`ENOENT`, `EEXIST`,
 * `ENOTDIR`, `ENOTEMPTY`, `EXDEV`, ...), which is how every caller tells an absent file from a
 * failure. Mutating calls: `open` with a write flag, the handle's `writeFile` / `chmod` / `sync`,
 * `rename`, `unlink`, `mkdir`, `rmdir`, `chmod`, `link`, `copyFile`, `symlink`.
 */
export interface PatchsmithFs extends StateDirFs {
  stat(path: string): Promise<FsStats>;
  lstat(path: string): Promise<FsStats>;
  realpath(path: string): Promise<string>;
  readlink(path: string): Promise<string>;
  /** The names in a folder, without `.` and `..`. */
  readdir(path: string): Promise<string[]>;
  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  /** `flags` as Node spells them: `r`, `wx` (create, failing with EEXIST when it exists). */
  open(path: string, flags: string, mode?: number): Promise<FsFileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<unknown>;
  rmdir(path: string): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  link(existing: string, newPath: string): Promise<void>;
  copyFile(from: string, to: string): Promise<void>;
  symlink(target: string, path: string): Promise<void>;
  /**
   * This fs is the machine's own disk (Node's calls, maybe wrapped): what needs the real disk
   * beside it may run (the snapshot store, written by isomorphic-git; the config read without
   * blocking on a FIFO). Absent on a host's virtual fs, where snapshots are refused.
   */
  readonly disk?: boolean;
}

/** Node's own file system, the default everywhere. */
export const diskFs: PatchsmithFs = Object.freeze({ ...nodeFs, disk: true });

/** Whether `fs` is the real disk (absent: the default, which is). */
export const isDiskFs = (fs: PatchsmithFs | undefined): boolean => fs === undefined || fs.disk === true;

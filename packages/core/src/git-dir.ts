import { join, resolve } from 'node:path';
import { trimTrailing } from './trim-trailing.js';

/** The few fs calls needed to find the private state folder; node:fs/promises satisfies it. */
export interface StateDirFs {
  stat(path: string): Promise<{ isDirectory(): boolean; isFile(): boolean; size?: number }>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
}

// A HEAD as git accepts it (setup.c validate_headref): a symbolic ref into refs/, or an object id
// (SHA-1 or SHA-256) alone on its line.
const isValidHead = (text: string) =>
  /^ref:\s*refs\//.test(text) || /^([0-9a-f]{40}|[0-9a-f]{64})\s*$/.test(text);

/** `.git`, `HEAD` and `commondir` are one line each; anything larger is not one of them. */
const MAX_GIT_FILE_BYTES = 64 * 1024;

/**
 * A small file's text, or null when it cannot be read (absent, a folder, unreadable) or is no
 * regular file of at most MAX_GIT_FILE_BYTES: a hostile tree's `HEAD` may be a FIFO, which would
 * block the read forever, or a link to /dev/zero, which would never end.
 */
export async function readTextOrNull(fs: StateDirFs, path: string): Promise<string | null> {
  try {
    const stats = await fs.stat(path);
    if (!stats.isFile() || (stats.size ?? 0) > MAX_GIT_FILE_BYTES) return null;
    return await fs.readFile(path, 'utf8');
  } catch {
    return null;
  }
}

async function isDirectory(fs: StateDirFs, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A linked worktree's (or a submodule's) git dir may keep only its own HEAD and index; objects and
 * refs live in the common dir that its `commondir` file names.
 */
export async function commonDirOf(fs: StateDirFs, gitDir: string): Promise<string> {
  const commondir = await readTextOrNull(fs, join(gitDir, 'commondir'));
  return commondir === null || commondir.trim() === '' ? gitDir : resolve(gitDir, commondir.trim());
}

/**
 * Why `dir` is not a git directory, as git itself decides it (setup.c `is_git_directory`: a valid
 * HEAD, and `objects/` and `refs/` in its common dir), or null when it is one. Objects and refs are
 * only ever written into a folder that passes, so a `.git` file cannot aim them at any folder.
 */
export async function gitDirProblem(fs: StateDirFs, dir: string): Promise<string | null> {
  const head = await readTextOrNull(fs, join(dir, 'HEAD'));
  if (head === null) return `${dir} has no HEAD file`;
  if (!isValidHead(head)) return `${join(dir, 'HEAD')} is neither a ref nor an object id`;
  const common = await commonDirOf(fs, dir);
  for (const name of ['objects', 'refs']) {
    if (!(await isDirectory(fs, join(common, name)))) return `${common} has no ${name}/ folder`;
  }
  return null;
}

/**
 * The folder a `.git` file names (`gitdir: PATH`, relative to the file's folder), or null when
 * the text is not a gitdir file as git reads one (setup.c `read_gitfile_gently`).
 */
export function gitFileTarget(text: string, folder: string): string | null {
  if (!text.startsWith('gitdir: ')) return null;
  const path = trimTrailing(text.slice('gitdir: '.length), '\r\n');
  if (path === '' || path.includes('\n') || path.includes('\0')) return null;
  return resolve(folder, path);
}

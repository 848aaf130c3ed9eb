import { join, resolve } from 'node:path';
import git from 'isomorphic-git';
import type { SnapshotFs } from './fs.js';
import { rootPrefix } from './paths.js';
import { locateStateDir } from './state-dir.js';

/** Where snapshots of a root are kept, and how root-relative paths map into the store. */
export interface Store {
  fs: SnapshotFs;
  /** Absolute root the caller's paths are relative to. */
  root: string;
  /** The git directory holding the ghost commits: the project's own, or the private bare store. */
  gitdir: string;
  /** True for the private bare repository used when the root is not inside a git repository. */
  private: boolean;
  /** The root's place inside the work tree (`''` at the top, and always without a repository). */
  prefix: string;
}

async function readTextOrNull(fs: SnapshotFs, path: string): Promise<string | null> {
  try {
    return await fs.promises.readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * A linked worktree's git dir (`.git/worktrees/x`) keeps only its own HEAD and index; objects and
 * refs live in the common dir that its `commondir` file names, so the snapshot goes there.
 */
async function commonGitDir(fs: SnapshotFs, gitDir: string): Promise<string> {
  const commondir = await readTextOrNull(fs, join(gitDir, 'commondir'));
  return commondir === null ? gitDir : resolve(gitDir, commondir.trim());
}

async function isGitDir(fs: SnapshotFs, path: string): Promise<boolean> {
  return (await readTextOrNull(fs, join(path, 'HEAD'))) !== null;
}

/**
 * Finds the store for `root`. Inside a git repository: that repository (SPEC §4.3). Otherwise a
 * private bare repository at `.patchsmith/snapshots.git`, created only when `create` is set, so
 * that listing or undoing never leaves a folder behind.
 */
export async function openStore(root: string, fs: SnapshotFs, create: boolean): Promise<Store | null> {
  const absRoot = resolve(root);
  const location = await locateStateDir(absRoot, fs.promises);
  if (location.gitDir !== null && location.workTree !== null) {
    const gitdir = await commonGitDir(fs, location.gitDir);
    return { fs, root: absRoot, gitdir, private: false, prefix: rootPrefix(location.workTree, absRoot) };
  }
  const gitdir = join(location.stateDir, 'snapshots.git');
  if (!(await isGitDir(fs, gitdir))) {
    if (!create) return null;
    await git.init({ fs, dir: gitdir, gitdir, bare: true });
  }
  return { fs, root: absRoot, gitdir, private: true, prefix: '' };
}

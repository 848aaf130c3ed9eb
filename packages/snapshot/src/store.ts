import { join, resolve } from 'node:path';
import { commonDirOf, gitDirProblem, isInsidePath, locateStateDir, PatchsmithError } from '@patchsmith/core';
import git from 'isomorphic-git';
import type { SnapshotFs } from './fs.js';
import { rootPrefix } from './paths.js';

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

/** What to do about a broken store: a private one only holds snapshots, a repository is the user's. */
export function storeRepair(store: Pick<Store, 'gitdir' | 'private'>): string {
  return store.private ? `repair or remove ${store.gitdir}` : `repair ${store.gitdir} (see \`git fsck\`)`;
}

function brokenStore(gitdir: string, reason: string): PatchsmithError {
  const repair = storeRepair({ gitdir, private: true });
  return new PatchsmithError(
    'STATE_INVALID',
    `the snapshot store at ${gitdir} is broken (${reason}); ${repair}`,
  );
}

const isMissing = (error: unknown) => (error as { code?: unknown } | null)?.code === 'ENOENT';

/** Where `path` really is (symlinks resolved), or null when nothing is there, not even a dangling link. */
async function realPathOrNull(fs: SnapshotFs, path: string): Promise<string | null> {
  try {
    return await fs.promises.realpath(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  try {
    await fs.promises.lstat(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  throw new PatchsmithError(
    'STATE_INVALID',
    `${path} is a symlink to nothing; patchsmith keeps no snapshot there: remove it`,
  );
}

/**
 * The private store and its state folder are parts of the tree, which may be hostile: a
 * `.patchsmith` or `snapshots.git` that is a symlink out of the root must not receive objects,
 * nor a state dir in a `.git` folder above the root that is no repository.
 */
async function assertInsideRoot(fs: SnapshotFs, root: string, paths: readonly string[]): Promise<void> {
  const realRoot = await fs.promises.realpath(root);
  for (const path of paths) {
    const real = await realPathOrNull(fs, path);
    if (!isInsidePath(path, root) || (real !== null && !isInsidePath(real, realRoot))) {
      const leads = real === null || real === path ? '' : ` (it leads to ${real})`;
      throw new PatchsmithError(
        'STATE_INVALID',
        `${path} is outside the root${leads}; patchsmith keeps no snapshot there`,
      );
    }
  }
}

/**
 * Finds the store for `root`. Inside a git repository: that repository (SPEC §4.3). Otherwise a
 * private bare repository at `snapshots.git` in the state dir (`.patchsmith/`, or a `.git` folder
 * that is no repository), created only when `create` is set, so
 * that listing or undoing never leaves a folder behind. A store that is there but is not a git
 * directory (a disk that filled up during its creation) is `STATE_INVALID`, never an empty store;
 * so is a root whose `.git` file leads nowhere.
 */
export async function openStore(root: string, fs: SnapshotFs, create: boolean): Promise<Store | null> {
  const absRoot = resolve(root);
  const location = await locateStateDir(absRoot, fs.promises);
  if (location.brokenGitFile !== null) {
    throw new PatchsmithError(
      'STATE_INVALID',
      `${location.brokenGitFile}; as git does, patchsmith does not treat it as a repository and keeps no snapshot there: fix or remove that .git file`,
    );
  }
  // A `.git` folder that git would not take for a repository gets no objects: the private store
  // then lives in the state dir, as in a plain folder (and only inside the root).
  const isRepository =
    location.gitDir !== null && (await gitDirProblem(fs.promises, location.gitDir)) === null;
  if (isRepository && location.gitDir !== null && location.workTree !== null) {
    const gitdir = await commonDirOf(fs.promises, location.gitDir);
    return { fs, root: absRoot, gitdir, private: false, prefix: rootPrefix(location.workTree, absRoot) };
  }
  const gitdir = join(location.stateDir, 'snapshots.git');
  await assertInsideRoot(fs, absRoot, [location.stateDir, gitdir]);
  if ((await realPathOrNull(fs, gitdir)) === null) {
    if (!create) return null;
    await git.init({ fs, dir: gitdir, gitdir, bare: true });
  }
  const problem = await gitDirProblem(fs.promises, gitdir);
  if (problem !== null) throw brokenStore(gitdir, problem);
  return { fs, root: absRoot, gitdir, private: true, prefix: '' };
}

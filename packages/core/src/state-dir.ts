import * as nodeFs from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { gitDirProblem, gitFileTarget, readTextOrNull, type StateDirFs } from './git-dir.js';

export interface StateDirLocation {
  /** Where the journal, the lock and (without a repository) the snapshot store live. */
  stateDir: string;
  /** The git directory of the repository that holds `root`, or null when there is none. */
  gitDir: string | null;
  /** The work tree root of that repository, or null. */
  workTree: string | null;
  /**
   * Set when the nearest `.git` is a file that does not lead to a git directory (git: "not a git
   * repository"): why. No snapshot is taken or read there; the journal and lock use `.patchsmith/`.
   */
  brokenGitFile: string | null;
}

async function statOrNull(fs: StateDirFs, path: string) {
  try {
    return await fs.stat(path);
  } catch {
    return null;
  }
}

/** Why the `.git` file at `dotGit` is not followed, or its git directory. */
async function followGitFile(
  fs: StateDirFs,
  dotGit: string,
): Promise<{ gitDir: string } | { problem: string }> {
  const text = await readTextOrNull(fs, dotGit);
  const target = text === null ? null : gitFileTarget(text, dirname(dotGit));
  if (target === null) return { problem: `${dotGit} is a file but not a "gitdir: PATH" file` };
  const problem = await gitDirProblem(fs, target);
  if (problem !== null)
    return { problem: `${dotGit} points to ${target}, which is not a git repository (${problem})` };
  return { gitDir: target };
}

/**
 * SPEC §7: private state lives in `.git/patchsmith/` inside a git repository, else in
 * `.patchsmith/` at the root, walking up from the root to the first `.git`. A `.git` folder is
 * inside its own work tree, so the lock and journal may live there whatever it holds (the
 * snapshot store checks it is a real git directory before writing objects). A `.git` file
 * (worktrees, submodules) is followed only when its `gitdir:` leads to a git directory, as git
 * requires; when it does not, the walk stops there, as git stops with "not a git repository"
 * (`brokenGitFile`), and nothing is ever written where it points.
 */
export async function locateStateDir(root: string, fs: StateDirFs = nodeFs): Promise<StateDirLocation> {
  const abs = resolve(root);
  const plain = (brokenGitFile: string | null): StateDirLocation => ({
    stateDir: join(abs, '.patchsmith'),
    gitDir: null,
    workTree: null,
    brokenGitFile,
  });
  // Every folder's `.git` is looked at at once, then taken nearest first: the walk waits for one
  // stat, not one per level (a warm host locates the state folder several times per edit).
  const folders = foldersUp(abs);
  const looks = folders.map((dir) => statOrNull(fs, join(dir, '.git')));
  for (const [k, dir] of folders.entries()) {
    const dotGit = join(dir, '.git');
    const st = await looks[k];
    if (st?.isDirectory()) {
      return { stateDir: join(dotGit, 'patchsmith'), gitDir: dotGit, workTree: dir, brokenGitFile: null };
    }
    if (st?.isFile()) {
      const followed = await followGitFile(fs, dotGit);
      if ('problem' in followed) return plain(followed.problem);
      const { gitDir } = followed;
      return { stateDir: join(gitDir, 'patchsmith'), gitDir, workTree: dir, brokenGitFile: null };
    }
  }
  return plain(null);
}

/** `dir` and every folder above it, nearest first. */
function foldersUp(dir: string): string[] {
  const folders = [dir];
  for (let at = dir; dirname(at) !== at; at = dirname(at)) folders.push(dirname(at));
  return folders;
}

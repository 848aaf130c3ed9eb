import * as nodeFs from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** The few fs calls needed to find the private state folder; node:fs/promises satisfies it. */
export interface StateDirFs {
  stat(path: string): Promise<{ isDirectory(): boolean; isFile(): boolean }>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
}

export interface StateDirLocation {
  /** Where the journal, the lock and (without a repository) the snapshot store live. */
  stateDir: string;
  /** The git directory of the repository that holds `root`, or null when there is none. */
  gitDir: string | null;
  /** The work tree root of that repository, or null. */
  workTree: string | null;
}

async function statOrNull(fs: StateDirFs, path: string) {
  try {
    return await fs.stat(path);
  } catch {
    return null;
  }
}

/**
 * SPEC §7: private state lives in `.git/patchsmith/` inside a git repository (found by walking up
 * from the root, following a worktree's `gitdir:` file), else in `.patchsmith/` at the root.
 */
export async function locateStateDir(root: string, fs: StateDirFs = nodeFs): Promise<StateDirLocation> {
  let dir = resolve(root);
  for (;;) {
    const dotGit = join(dir, '.git');
    const st = await statOrNull(fs, dotGit);
    if (st?.isDirectory()) return { stateDir: join(dotGit, 'patchsmith'), gitDir: dotGit, workTree: dir };
    if (st?.isFile()) {
      const text = await fs.readFile(dotGit, 'utf8');
      const m = /^gitdir:\s*(.+)$/m.exec(text);
      if (m?.[1]) {
        const gitDir = resolve(dir, m[1].trim());
        return { stateDir: join(gitDir, 'patchsmith'), gitDir, workTree: dir };
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const abs = resolve(root);
  return { stateDir: join(abs, '.patchsmith'), gitDir: null, workTree: null };
}

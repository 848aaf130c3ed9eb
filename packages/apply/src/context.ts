import { join, resolve } from 'node:path';
import { locateStateDir } from '@patchsmith/core';
import type { TransactionFs } from './fs.js';
import { io } from './io-failure.js';
import type { PathContext } from './resolve-path.js';

/** Everything about one root that the transaction works out once. */
export interface RootContext extends PathContext {
  /** Where the lock and the journal live (SPEC §7). */
  stateDir: string;
  lockPath: string;
  /** The folder of the transaction in progress: the journal and the backups. */
  txnDir: string;
  journalPath: string;
  /**
   * The folder whose state dir this is (the repository's work tree, or the root itself): roots in
   * sub-folders of one repository share its state dir, so a journal says which root it belongs to.
   */
  workTree: string;
}

/** The state dir's files, by name. */
export function stateFiles(stateDir: string) {
  const txnDir = join(stateDir, 'txn');
  return { lockPath: join(stateDir, 'lock'), txnDir, journalPath: join(txnDir, 'journal.json') };
}

/** Resolves the root (it must exist) and finds its private state dir. */
export async function openRoot(root: string, fs: TransactionFs, stateDir?: string): Promise<RootContext> {
  const absolute = resolve(root);
  const realRoot = await io('realpath', absolute, () => fs.realpath(absolute));
  const layout = await locateStateDir(realRoot, fs);
  const dir = stateDir ?? layout.stateDir;
  const privateDirs = [dir, ...(layout.gitDir ? [layout.gitDir] : [])];
  const workTree = layout.workTree ?? realRoot;
  return { fs, root: absolute, realRoot, privateDirs, stateDir: dir, workTree, ...stateFiles(dir) };
}

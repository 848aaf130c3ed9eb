import { PatchsmithError } from '@patchsmith/core';
import git from 'isomorphic-git';
import { SNAPSHOT_AUTHOR } from './create-snapshot.js';
import { defaultFs, type SnapshotFs } from './fs.js';
import { listUndoneIds, resolveSnapshot } from './read-snapshot.js';
import { redoRef, undoneRef } from './snapshot-id.js';
import { openStore } from './store.js';

export interface MarkUndoneOptions {
  root: string;
  id: string;
  fs?: SnapshotFs;
}

/**
 * Records that snapshot `id` was restored, so `log` can say so and a later `planUndo` without an id
 * moves on to the snapshot before it. The record is an annotated tag object (its tagger time is the
 * undo time) under the private ref `refs/patchsmith/undone/<id>`. Marking twice keeps the first.
 * Throws `NO_SNAPSHOT` for an unknown id.
 */
export async function markUndone(options: MarkUndoneOptions): Promise<void> {
  const fs = options.fs ?? defaultFs;
  const store = await openStore(options.root, fs, false);
  const commit = store === null ? null : await resolveSnapshot(store, options.id);
  if (store === null || commit === null) {
    throw new PatchsmithError('NO_SNAPSHOT', `there is no snapshot ${options.id}`);
  }
  // Checked before writing the tag so that marking twice leaves no dangling object for `git fsck`.
  if ((await listUndoneIds(store)).has(options.id)) return;
  const now = Math.floor(Date.now() / 1000);
  const tag = await git.writeTag({
    fs,
    gitdir: store.gitdir,
    tag: {
      object: commit,
      type: 'commit',
      tag: `patchsmith-undone-${options.id}`,
      tagger: { ...SNAPSHOT_AUTHOR, timestamp: now, timezoneOffset: 0 },
      message: `patchsmith: snapshot ${options.id} was undone\n`,
    },
  });
  try {
    await git.writeRef({ fs, gitdir: store.gitdir, ref: undoneRef(options.id), value: tag });
  } catch (error) {
    if ((error as { code?: string }).code !== 'AlreadyExistsError') throw error;
  }
}

/**
 * Records that the undo of snapshot `id` was taken back: its undone mark and its redo record go,
 * so `log` shows it applied again and `undo` finds it first again.
 */
export async function markRedone(options: MarkUndoneOptions): Promise<void> {
  const store = await openStore(options.root, options.fs ?? defaultFs, false);
  if (store === null || (await resolveSnapshot(store, options.id)) === null) {
    throw new PatchsmithError('NO_SNAPSHOT', `there is no snapshot ${options.id}`);
  }
  for (const ref of [undoneRef(options.id), redoRef(options.id)]) {
    await git.deleteRef({ fs: store.fs, gitdir: store.gitdir, ref });
  }
}

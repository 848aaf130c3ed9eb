import { PatchsmithError } from '@patchsmith/core';
import git from 'isomorphic-git';
import { defaultFs, type SnapshotFs } from './fs.js';
import { listSnapshotIds } from './read-snapshot.js';
import { redoRef, snapshotRef, undoneRef } from './snapshot-id.js';
import { openStore, type Store } from './store.js';

export interface ForgetSnapshotOptions {
  root: string;
  id: string;
  fs?: SnapshotFs;
}

// A ref name below our prefix that stays below it: no empty, `.`-led (`..`) or backslashed segment,
// no control character (a hostile packed-refs may list `refs/patchsmith/snapshots/../../heads/main`).
const staysBelowPrefix = (id: string) =>
  id.split('/').every((segment) => /^[^.\\\u0000-\u001f\u007f][^\\\u0000-\u001f\u007f]*$/.test(segment));

// A ref that is not there (never written, or deleted already) is what forgetting wants.
const isNotFound = (error: unknown) => (error as { code?: string } | null)?.code === 'NotFoundError';

/** Deletes the refs of snapshot `id` (its own, its undone mark, its redo record); the objects are git's gc's. */
export async function dropSnapshotRefs(store: Store, id: string): Promise<void> {
  for (const ref of [snapshotRef(id), undoneRef(id), redoRef(id)]) {
    await git.deleteRef({ fs: store.fs, gitdir: store.gitdir, ref }).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    });
  }
}

/**
 * Drops snapshot `id` from the history, so neither `log` nor `undo` sees it again: a stale one
 * that is in the way, or a broken one (any id the store lists, well formed or not, since a hostile
 * ref must be removable too). Throws `NO_SNAPSHOT` for an id the store does not list, and
 * `STATE_INVALID` for a listed name that would lead out of the snapshot refs (a hostile packed-refs).
 */
export async function forgetSnapshot(options: ForgetSnapshotOptions): Promise<void> {
  const store = await openStore(options.root, options.fs ?? defaultFs, false);
  // Only an id the store lists names a ref: a caller's `../heads/main` never reaches deleteRef.
  const listed = store === null ? [] : await listSnapshotIds(store);
  if (store === null || !listed.includes(options.id)) {
    throw new PatchsmithError('NO_SNAPSHOT', `there is no snapshot ${options.id}`);
  }
  if (!staysBelowPrefix(options.id)) {
    throw new PatchsmithError(
      'STATE_INVALID',
      `the ref ${JSON.stringify(snapshotRef(options.id))} names a place outside refs/patchsmith/snapshots; patchsmith deletes no ref there: remove it from ${store.gitdir}/packed-refs by hand`,
    );
  }
  await dropSnapshotRefs(store, options.id);
}

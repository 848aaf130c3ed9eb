import { defaultFs, type SnapshotFs } from './fs.js';
import {
  compareNewestFirst,
  type LoadedSnapshot,
  listSnapshotIds,
  listUndoneIds,
  loadSnapshot,
  resolveSnapshot,
  type SnapshotInfo,
} from './read-snapshot.js';
import { openStore, type Store } from './store.js';

export interface ListSnapshotsOptions {
  root: string;
  fs?: SnapshotFs;
}

/** Every snapshot in the store, loaded, newest first. */
export async function loadAllSnapshots(store: Store): Promise<LoadedSnapshot[]> {
  const cache = {};
  const undoneIds = await listUndoneIds(store);
  const loaded: LoadedSnapshot[] = [];
  for (const id of await listSnapshotIds(store)) {
    const commit = await resolveSnapshot(store, id);
    if (commit !== null) loaded.push(await loadSnapshot(store, id, commit, undoneIds, cache));
  }
  return loaded.sort((a, b) => compareNewestFirst(a.info, b.info));
}

/**
 * The snapshots recorded for the root's store (the whole repository's when inside one), newest
 * first, for `patchsmith log`. Creates nothing: no store yet means no snapshots.
 */
export async function listSnapshots(options: ListSnapshotsOptions): Promise<SnapshotInfo[]> {
  const store = await openStore(options.root, options.fs ?? defaultFs, false);
  if (store === null) return [];
  return (await loadAllSnapshots(store)).map((s) => s.info);
}

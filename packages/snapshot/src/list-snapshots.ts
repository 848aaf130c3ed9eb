import { PatchsmithError } from '@patchsmith/core';
import { defaultFs, type SnapshotFs } from './fs.js';
import {
  compareNewestFirst,
  invalidSnapshotInfo,
  type LoadedSnapshot,
  listSnapshotIds,
  listUndoneIds,
  loadSnapshot,
  resolveSnapshot,
  type SnapshotInfo,
} from './read-snapshot.js';
import { isWellFormedId } from './snapshot-id.js';
import { applicability, type DiskStates, type SnapshotState } from './snapshot-status.js';
import { openStore, type Store } from './store.js';

export interface ListSnapshotsOptions {
  root: string;
  fs?: SnapshotFs;
}

/** The snapshots of a store: those that load (newest first), and those that do not (by id, newest first). */
export interface AllSnapshots {
  loaded: LoadedSnapshot[];
  invalid: SnapshotInfo[];
  /** The ids recorded as undone. */
  undoneIds: ReadonlySet<string>;
}

/** Loads one listed ref; a broken or hostile one becomes an invalid entry, never a crash. */
async function loadListed(store: Store, id: string, undoneIds: ReadonlySet<string>, cache: object) {
  if (!isWellFormedId(id)) {
    return invalidSnapshotInfo(
      id,
      null,
      new PatchsmithError('STATE_INVALID', `snapshot ref ${id}: not a patchsmith snapshot id`),
    );
  }
  let commit: string | null = null;
  try {
    commit = await resolveSnapshot(store, id);
    return commit === null ? null : await loadSnapshot(store, id, commit, undoneIds, cache);
  } catch (error) {
    return invalidSnapshotInfo(id, commit, error);
  }
}

/** Every snapshot ref in the store, read. */
export async function loadAllSnapshots(store: Store): Promise<AllSnapshots> {
  const cache = {};
  const undoneIds = await listUndoneIds(store);
  const loaded: LoadedSnapshot[] = [];
  const invalid: SnapshotInfo[] = [];
  for (const id of await listSnapshotIds(store)) {
    const result = await loadListed(store, id, undoneIds, cache);
    if (result === null) continue;
    if ('manifest' in result) loaded.push(result);
    else invalid.push(result);
  }
  loaded.sort((a, b) => compareNewestFirst(a.info, b.info));
  invalid.sort((a, b) => compareNewestFirst(a, b));
  return { loaded, invalid, undoneIds };
}

/** A snapshot as the history shows it: where it stands against the tree of now. */
export interface HistoryEntry extends SnapshotInfo {
  state: SnapshotState;
  /** For `stale`: the paths that changed since the apply; for `outside`: the paths outside the root. */
  changed: string[];
}

/** Where one loaded snapshot stands (an undone one is not compared with the disk). */
async function entryOf(store: Store, snapshot: LoadedSnapshot, cache: DiskStates): Promise<HistoryEntry> {
  if (snapshot.info.undone !== null) return { ...snapshot.info, state: 'undone', changed: [] };
  const found = await applicability(store, snapshot.manifest, cache);
  if (found.kind === 'outside') return { ...snapshot.info, state: 'outside', changed: found.outside };
  const state = found.kind === 'applicable' ? 'applied' : 'stale';
  return { ...snapshot.info, state, changed: found.changed };
}

/**
 * The snapshots recorded for the root's store (the whole repository's when inside one), newest
 * first, each with its state against the tree of now, then those that cannot be used (`invalid`
 * says why), for `patchsmith log`. Creates nothing: no store yet means no snapshots.
 */
export async function listSnapshots(options: ListSnapshotsOptions): Promise<HistoryEntry[]> {
  const store = await openStore(options.root, options.fs ?? defaultFs, false);
  if (store === null) return [];
  const { loaded, invalid } = await loadAllSnapshots(store);
  const cache: DiskStates = new Map();
  const entries: HistoryEntry[] = [];
  for (const snapshot of loaded) entries.push(await entryOf(store, snapshot, cache));
  return [...entries, ...invalid.map((s): HistoryEntry => ({ ...s, state: 'invalid', changed: [] }))];
}

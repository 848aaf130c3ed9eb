import { defaultFs, type SnapshotFs } from './fs.js';
import { refusingBrokenState, restoreOrRefuse, type UndoPlanResult } from './plan-undo.js';
import {
  compareNewestFirst,
  type LoadedSnapshot,
  listSnapshotIds,
  listUndoneIds,
  loadSnapshot,
  resolveSnapshot,
} from './read-snapshot.js';
import { REDO_REF_PREFIX, redoRef } from './snapshot-id.js';
import { applicability } from './snapshot-status.js';
import { openStore, type Store } from './store.js';

export interface PlanRedoOptions {
  root: string;
  /** Restore even the files that changed since the undo. */
  force?: boolean;
  fs?: SnapshotFs;
}

/** The redo record of every snapshot that is still marked undone (a record whose snapshot was redone or forgotten is left out). */
async function redoRecords(store: Store): Promise<LoadedSnapshot[]> {
  const undone = await listUndoneIds(store);
  const records: LoadedSnapshot[] = [];
  const cache = {};
  for (const id of await listSnapshotIds(store, REDO_REF_PREFIX)) {
    if (!undone.has(id)) continue;
    const commit = await resolveSnapshot(store, id, REDO_REF_PREFIX);
    if (commit === null) continue;
    records.push(await loadSnapshot(store, id, commit, new Set(), cache, redoRef(id)));
  }
  return records.sort((a, b) => compareNewestFirst(a.info, b.info));
}

/**
 * A plan that takes back the latest undo: the files that undo wrote get back what it overwrote (the
 * redo record the undo took of its own plan). `snapshot.id` is the snapshot that was undone.
 * Refuses with `STALE` when a file changed since the undo (unless `force`), `NO_SNAPSHOT` when no
 * undo is left to take back, `STATE_INVALID` for a broken or hostile record.
 */
export async function planRedo(options: PlanRedoOptions): Promise<UndoPlanResult> {
  return refusingBrokenState(async () => {
    const store = await openStore(options.root, options.fs ?? defaultFs, false);
    const latest = store === null ? undefined : (await redoRecords(store))[0];
    if (store === null || latest === undefined) {
      return { ok: false, code: 'NO_SNAPSHOT', message: 'there is no undo to redo', skipped: [] };
    }
    const found = await applicability(store, latest.manifest);
    const result = await restoreOrRefuse(store, latest, found, options.force ?? false, []);
    if (result.ok || result.code !== 'STALE') return result;
    const message = `files changed since snapshot ${latest.info.id} was undone: ${result.changed?.join(', ')} (force to redo anyway)`;
    return { ...result, message };
  });
}

import { dropSnapshotRefs } from './forget-snapshot.js';
import { defaultFs, type SnapshotFs } from './fs.js';
import { loadAllSnapshots } from './list-snapshots.js';
import { openStore } from './store.js';

export interface GcSnapshotsOptions {
  root: string;
  /** Keep at least the newest `keep` snapshots, however old. */
  keep?: number;
  /** Drop only snapshots older than this many milliseconds. */
  olderThanMs?: number;
  /** The time ages are measured from (default: now). */
  now?: Date;
  fs?: SnapshotFs;
}

export interface GcSnapshotsResult {
  /** The ids whose refs were deleted, newest first. */
  removed: string[];
  /** How many snapshots are left. */
  kept: number;
}

/**
 * Prunes the history: drops every snapshot beyond the newest `keep` that is older than
 * `olderThanMs` (either bound alone when the other is absent; with neither, nothing is dropped), with its undone mark and redo
 * record. Only refs are deleted; the objects they kept become git's to collect (`git gc`, or
 * `git --git-dir .patchsmith/snapshots.git gc` for the private store). A snapshot that cannot be
 * read is left alone (`forget` drops it by id): its age is unknown.
 */
export async function gcSnapshots(options: GcSnapshotsOptions): Promise<GcSnapshotsResult> {
  const store = await openStore(options.root, options.fs ?? defaultFs, false);
  if (store === null) return { removed: [], kept: 0 };
  const { loaded, invalid } = await loadAllSnapshots(store);
  const unbounded = options.keep === undefined && options.olderThanMs === undefined;
  if (unbounded) return { removed: [], kept: loaded.length + invalid.length };
  const now = (options.now ?? new Date()).getTime();
  const keep = options.keep ?? 0;
  // Past the newest `keep`, and old enough when an age is given.
  const isPruned = (time: string, index: number) =>
    index >= keep && (options.olderThanMs === undefined || now - Date.parse(time) > options.olderThanMs);
  const removed = loaded.filter((s, index) => isPruned(s.info.time, index)).map((s) => s.info.id);
  for (const id of removed) await dropSnapshotRefs(store, id);
  return { removed, kept: loaded.length - removed.length + invalid.length };
}

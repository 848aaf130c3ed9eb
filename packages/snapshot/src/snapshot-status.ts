import { IO_CONCURRENCY, isSymlinkMode, mapLimit } from '@patchsmith/core';
import { type DiskState, readDiskState } from './disk-state.js';
import type { Manifest, ManifestAfter, ManifestEntry } from './manifest.js';
import { fromStorePath } from './paths.js';
import type { Store } from './store.js';

/**
 * Where a snapshot stands against the tree of now: `applied` (every path holds what the apply
 * wrote, so undo can restore it), `undone`, `stale` (a path changed since: undo needs `force`),
 * `outside` (it touched paths outside this root: undo it from a wider root), `invalid` (its ref,
 * commit or manifest is broken or hostile).
 */
export type SnapshotState = 'applied' | 'undone' | 'stale' | 'outside' | 'invalid';

/** What a snapshot's paths hold now, compared with what its apply wrote. */
export type Applicability =
  | { kind: 'applicable' | 'stale'; paths: string[]; states: DiskState[]; changed: string[] }
  | { kind: 'outside'; outside: string[] };

/** Each path's state read once per listing, however many snapshots touched it. */
export type DiskStates = Map<string, Promise<DiskState>>;

// The path still holds exactly what the apply wrote there: the same bytes, or still nothing (a
// folder counts as nothing when the apply wrote files into it: a file it replaced by a folder).
function matchesRecordedAfter(after: ManifestAfter | null, state: DiskState, filledFolder: boolean): boolean {
  if (after === null) return state.kind === 'missing' || (state.kind === 'directory' && filledFolder);
  return state.kind === 'file' && state.hash === after.hash;
}

/** Whether the manifest writes a file below `path` (which the apply made a folder). */
function writesBelow(manifest: Manifest, path: string): boolean {
  return manifest.entries.some((entry) => entry.after !== null && entry.path.startsWith(`${path}/`));
}

function diskState(store: Store, path: string, asLink: boolean, cache: DiskStates): Promise<DiskState> {
  const key = asLink ? `link:${path}` : path;
  let state = cache.get(key);
  if (state === undefined) {
    state = readDiskState(store.fs, store.root, path, asLink);
    cache.set(key, state);
  }
  return state;
}

// The apply wrote or replaced the link itself at this entry's path.
const isLinkEntry = (entry: ManifestEntry) =>
  isSymlinkMode(entry.before?.mode) || isSymlinkMode(entry.after?.mode);

/** Whether undo could restore the snapshot `manifest` records, judged by the disk of now. */
export async function applicability(
  store: Store,
  manifest: Manifest,
  cache: DiskStates = new Map(),
): Promise<Applicability> {
  const mapped = manifest.entries.map((entry) => fromStorePath(store.prefix, entry.path));
  const outside = manifest.entries.filter((_, i) => mapped[i] === null).map((entry) => entry.path);
  if (outside.length > 0) return { kind: 'outside', outside };
  const paths = mapped as string[];
  const states = await mapLimit(paths, IO_CONCURRENCY, (path, i) =>
    diskState(store, path, isLinkEntry(manifest.entries[i]!), cache),
  );
  const changed = paths.filter((_, i) => {
    const entry = manifest.entries[i]!;
    return !matchesRecordedAfter(entry.after, states[i]!, writesBelow(manifest, entry.path));
  });
  return { kind: changed.length === 0 ? 'applicable' : 'stale', paths, states, changed };
}

import { type ErrorCode, hashBytes, IO_CONCURRENCY, mapLimit, PatchsmithError } from '@patchsmith/core';
import { type FileState, type Plan, planRestore } from '@patchsmith/planner';
import git from 'isomorphic-git';
import { type DiskState, readDiskState } from './disk-state.js';
import { defaultFs, type SnapshotFs } from './fs.js';
import { loadAllSnapshots } from './list-snapshots.js';
import type { ManifestAfter, ManifestEntry } from './manifest.js';
import { fromStorePath } from './paths.js';
import {
  type LoadedSnapshot,
  listUndoneIds,
  loadSnapshot,
  resolveSnapshot,
  type SnapshotInfo,
} from './read-snapshot.js';
import { openStore, type Store } from './store.js';

export interface PlanUndoOptions {
  root: string;
  /** The snapshot to restore; the newest one not yet marked undone when omitted. */
  id?: string;
  /** Restore even the files that changed since the apply. */
  force?: boolean;
  fs?: SnapshotFs;
}

export type UndoPlanResult =
  | { ok: true; plan: Plan; snapshot: SnapshotInfo }
  | {
      ok: false;
      /**
       * `FILE_NOT_FOUND`: no such snapshot (or none at all); `STALE`: files changed since the apply;
       * `PATH_OUTSIDE_ROOT`: the snapshot touched paths outside this root; `STATE_INVALID`: the
       * snapshot (or a newer one that would come first) is broken or hostile.
       */
      code: Extract<ErrorCode, 'FILE_NOT_FOUND' | 'STALE' | 'PATH_OUTSIDE_ROOT' | 'STATE_INVALID'>;
      message: string;
      /** For STALE: the files (relative to the root) that no longer hold what the apply wrote. */
      changed?: string[];
      snapshot?: SnapshotInfo;
    };

// The path still holds exactly what the apply wrote there: the same bytes, or still nothing.
function matchesRecordedAfter(after: ManifestAfter | null, state: DiskState): boolean {
  if (after === null) return state.kind === 'missing';
  return state.kind === 'file' && state.hash === after.hash;
}

/**
 * The newest snapshot not yet undone. An invalid one whose id (ids carry the time) is newer may be
 * the apply the caller means, so it is refused by name rather than skipped.
 */
async function findLatest(store: Store): Promise<LoadedSnapshot | null> {
  const { loaded, invalid, undoneIds } = await loadAllSnapshots(store);
  const latest = loaded.find((s) => s.info.undone === null) ?? null;
  const blocking = invalid.find((s) => !undoneIds.has(s.id) && (latest === null || s.id > latest.info.id));
  if (blocking !== undefined) {
    throw new PatchsmithError(
      'STATE_INVALID',
      `${blocking.invalid} (the newest snapshot, so undo cannot tell which apply is the latest: give an id, or remove ${blocking.ref})`,
    );
  }
  return latest;
}

async function findSnapshot(store: Store, id: string | undefined): Promise<LoadedSnapshot | null> {
  if (id === undefined) return findLatest(store);
  const commit = await resolveSnapshot(store, id);
  if (commit === null) return null;
  return loadSnapshot(store, id, commit, await listUndoneIds(store), {});
}

/** The saved content of an entry, checked against the hash its manifest records. */
async function beforeTarget(store: Store, id: string, entry: ManifestEntry, cache: object) {
  if (entry.before === null) return null;
  let bytes: Uint8Array;
  try {
    ({ blob: bytes } = await git.readBlob({
      fs: store.fs,
      gitdir: store.gitdir,
      oid: entry.before.blob,
      cache,
    }));
  } catch (error) {
    if ((error as { code?: string } | null)?.code !== 'NotFoundError') throw error;
    throw new PatchsmithError(
      'IO_ERROR',
      `snapshot ${id}: the saved content of ${entry.path} is missing from the store`,
      {
        path: entry.path,
      },
    );
  }
  if (hashBytes(bytes) !== entry.before.hash) {
    throw new PatchsmithError(
      'STATE_INVALID',
      `snapshot ${id}: before.blob of ${entry.path} does not hold the content its before.hash records`,
      {
        path: entry.path,
      },
    );
  }
  return { bytes, mode: entry.before.mode };
}

// A refusal thrown while reading the store (a broken store, a hostile manifest) as undo's answer.
const isStateRefusal = (error: unknown): error is PatchsmithError =>
  error instanceof PatchsmithError && error.code === 'STATE_INVALID';

/**
 * SPEC §4 undo: a plan that brings every path of a snapshot back to its before state. Writes
 * nothing; the transaction applies the plan. Refuses with `STALE` (naming the files) when a path
 * no longer holds what the apply wrote, unless `force`.
 */
export async function planUndo(options: PlanUndoOptions): Promise<UndoPlanResult> {
  try {
    return await planUndoOf(options);
  } catch (error) {
    if (isStateRefusal(error)) return { ok: false, code: 'STATE_INVALID', message: error.message };
    throw error;
  }
}

async function planUndoOf(options: PlanUndoOptions): Promise<UndoPlanResult> {
  const store = await openStore(options.root, options.fs ?? defaultFs, false);
  const snapshot = store === null ? null : await findSnapshot(store, options.id);
  if (store === null || snapshot === null) {
    const message =
      options.id === undefined ? 'there is no snapshot to undo' : `there is no snapshot ${options.id}`;
    return { ok: false, code: 'FILE_NOT_FOUND', message };
  }
  const { manifest, info } = snapshot;

  const paths = manifest.entries.map((entry) => fromStorePath(store.prefix, entry.path));
  const outside = manifest.entries.filter((_, i) => paths[i] === null).map((entry) => entry.path);
  if (outside.length > 0) {
    const message = `snapshot ${info.id} touched paths outside ${store.root}: ${outside.join(', ')}; undo it from the repository's top folder`;
    return { ok: false, code: 'PATH_OUTSIDE_ROOT', message, snapshot: info };
  }
  const rootPaths = paths as string[];

  const states = await mapLimit(rootPaths, IO_CONCURRENCY, (path) =>
    readDiskState(store.fs, store.root, path),
  );
  const changed = rootPaths.filter((_, i) => !matchesRecordedAfter(manifest.entries[i]!.after, states[i]!));
  if (changed.length > 0 && !options.force) {
    const message = `files changed since snapshot ${info.id} was applied: ${changed.join(', ')} (force to undo anyway)`;
    return { ok: false, code: 'STALE', message, changed, snapshot: info };
  }

  const cache = {};
  const targets = await mapLimit(manifest.entries, IO_CONCURRENCY, (entry) =>
    beforeTarget(store, info.id, entry, cache),
  );
  const current = new Map(rootPaths.map((path, i) => [path, states[i]!]));
  const restore = new Map(rootPaths.map((path, i) => [path, targets[i] ?? null]));
  return { ok: true, plan: planRestore(current, restore), snapshot: info };
}

import { type ErrorCode, hashBytes, IO_CONCURRENCY, mapLimit, PatchsmithError } from '@patchsmith/core';
import { type Plan, planRestore } from '@patchsmith/planner';
import git from 'isomorphic-git';
import { defaultFs, type SnapshotFs } from './fs.js';
import { loadAllSnapshots } from './list-snapshots.js';
import type { ManifestEntry } from './manifest.js';
import {
  type LoadedSnapshot,
  listUndoneIds,
  loadSnapshot,
  resolveSnapshot,
  type SnapshotInfo,
} from './read-snapshot.js';
import { type Applicability, applicability } from './snapshot-status.js';
import { openStore, type Store } from './store.js';

export interface PlanUndoOptions {
  root: string;
  /** The snapshot to restore; the newest one not yet marked undone when omitted. */
  id?: string;
  /** Restore even the files that changed since the apply. */
  force?: boolean;
  fs?: SnapshotFs;
}

/** A newer snapshot that an undo without an id passed over, and why. */
export interface SkippedSnapshot {
  id: string;
  /** `stale`: `paths` changed since its apply; `outside`: it touched `paths` outside this root. */
  reason: 'stale' | 'outside';
  paths: string[];
  /** The id, the reason and the paths, said in one line. */
  message: string;
}

export type UndoPlanResult =
  | { ok: true; plan: Plan; snapshot: SnapshotInfo; skipped: SkippedSnapshot[] }
  | {
      ok: false;
      /**
       * `NO_SNAPSHOT`: no such snapshot (or none at all); `STALE`: files changed since the apply
       * (of every snapshot left, without an id); `PATH_OUTSIDE_ROOT`: the snapshot touched paths
       * outside this root; `STATE_INVALID`: the snapshot (or a newer one that would come first)
       * is broken or hostile.
       */
      code: Extract<ErrorCode, 'NO_SNAPSHOT' | 'STALE' | 'PATH_OUTSIDE_ROOT' | 'STATE_INVALID'>;
      message: string;
      /** For STALE: the files (relative to the root) that no longer hold what the apply wrote. */
      changed?: string[];
      snapshot?: SnapshotInfo;
      skipped: SkippedSnapshot[];
    };

/**
 * The snapshots not yet undone, newest first. An invalid one whose id (ids carry the time) is newer
 * than the newest of them may be the apply the caller means, so it is refused by name rather than
 * skipped.
 */
async function undoCandidates(store: Store): Promise<LoadedSnapshot[]> {
  const { loaded, invalid, undoneIds } = await loadAllSnapshots(store);
  const candidates = loaded.filter((s) => s.info.undone === null);
  const latest = candidates[0];
  const blocking = invalid.find(
    (s) => !undoneIds.has(s.id) && (latest === undefined || s.id > latest.info.id),
  );
  if (blocking !== undefined) {
    throw new PatchsmithError(
      'STATE_INVALID',
      `${blocking.invalid} (the newest snapshot, so undo cannot tell which apply is the latest: give an id, or remove ${blocking.ref} (patchsmith forget ${blocking.id}))`,
    );
  }
  return candidates;
}

async function findById(store: Store, id: string): Promise<LoadedSnapshot | null> {
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
  return refusingBrokenState(() => planUndoOf(options));
}

/** Runs a planning step; a broken store or hostile record it meets is its refusal, not a throw. */
export async function refusingBrokenState(plan: () => Promise<UndoPlanResult>): Promise<UndoPlanResult> {
  try {
    return await plan();
  } catch (error) {
    if (isStateRefusal(error))
      return { ok: false, code: 'STATE_INVALID', message: error.message, skipped: [] };
    throw error;
  }
}

const noSnapshot = (message: string): UndoPlanResult => ({
  ok: false,
  code: 'NO_SNAPSHOT',
  message,
  skipped: [],
});

async function planUndoOf(options: PlanUndoOptions): Promise<UndoPlanResult> {
  const store = await openStore(options.root, options.fs ?? defaultFs, false);
  const force = options.force ?? false;
  if (options.id !== undefined) {
    const snapshot = store === null ? null : await findById(store, options.id);
    if (store === null || snapshot === null) return noSnapshot(`there is no snapshot ${options.id}`);
    if (snapshot.info.undone !== null && !force) return undoneAlready(snapshot.info);
    return restoreOrRefuse(store, snapshot, await applicability(store, snapshot.manifest), force, []);
  }
  const candidates = store === null ? [] : await undoCandidates(store);
  if (store === null || candidates.length === 0) return noSnapshot('there is no snapshot to undo');
  // Passed over, never restored: a newer snapshot whose files changed (or lie outside the root).
  const skipped: SkippedSnapshot[] = [];
  const refusals: UndoPlanResult[] = [];
  const cache = new Map();
  for (const snapshot of candidates) {
    const found = await applicability(store, snapshot.manifest, cache);
    const result = await restoreOrRefuse(store, snapshot, found, force, skipped);
    if (result.ok) return result;
    refusals.push(result);
    skipped.push(
      found.kind === 'outside'
        ? skippedAs(snapshot.info.id, 'outside', found.outside)
        : skippedAs(snapshot.info.id, 'stale', found.changed),
    );
  }
  // Nothing left that undo can restore: the newest refusal speaks, naming every snapshot passed over.
  const first = refusals[0] as Extract<UndoPlanResult, { ok: false }>;
  if (refusals.length === 1) return { ...first, skipped: [] };
  const forcing = skipped.some((s) => s.reason === 'stale') ? ' without --force' : ' from this root';
  const message = `no snapshot can be undone${forcing}: ${skipped.map((s) => s.message).join('; ')}`;
  return { ...first, message, skipped };
}

/** An undo by id of a snapshot that was undone: its files hold what the undo wrote, not what the apply did. */
function undoneAlready(info: SnapshotInfo): UndoPlanResult {
  const message = `snapshot ${info.id} was undone already (${info.undone?.time}); redo brings it back`;
  return { ok: false, code: 'STALE', message, snapshot: info, skipped: [] };
}

/** A snapshot passed over, with the line that says why. */
function skippedAs(id: string, reason: SkippedSnapshot['reason'], paths: string[]): SkippedSnapshot {
  const why = reason === 'stale' ? 'files changed since its apply' : 'touched paths outside this root';
  // A name with a control character (a newline) is quoted, so the line cannot be forged by it.
  const shown = paths.map((p) => (/[\u0000-\u001f\u007f-\u009f]/.test(p) ? JSON.stringify(p) : p));
  return { id, reason, paths, message: `${id} (${why}: ${shown.join(', ')})` };
}

/** The plan that restores `snapshot`, or why it cannot be restored (changed files need `force`). */
export async function restoreOrRefuse(
  store: Store,
  snapshot: LoadedSnapshot,
  found: Applicability,
  force: boolean,
  skipped: SkippedSnapshot[],
): Promise<UndoPlanResult> {
  const { manifest, info } = snapshot;
  if (found.kind === 'outside') {
    const message = `snapshot ${info.id} touched paths outside ${store.root}: ${found.outside.join(', ')}; undo it from the repository's top folder`;
    return { ok: false, code: 'PATH_OUTSIDE_ROOT', message, snapshot: info, skipped: [...skipped] };
  }
  const { paths, states, changed } = found;
  if (found.kind === 'stale' && !force) {
    const message = `files changed since snapshot ${info.id} was applied: ${changed.join(', ')} (force to undo anyway)`;
    return { ok: false, code: 'STALE', message, changed, snapshot: info, skipped: [...skipped] };
  }
  const cache = {};
  const targets = await mapLimit(manifest.entries, IO_CONCURRENCY, (entry) =>
    beforeTarget(store, info.id, entry, cache),
  );
  const current = new Map(paths.map((path, i) => [path, states[i]!]));
  const restore = new Map(paths.map((path, i) => [path, targets[i] ?? null]));
  return { ok: true, plan: planRestore(current, restore), snapshot: info, skipped: [...skipped] };
}

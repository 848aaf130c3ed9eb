import { posix } from 'node:path';
import { PatchsmithError } from '@patchsmith/core';
import git from 'isomorphic-git';
import { decodeManifest, MANIFEST_NAME, type Manifest, type ManifestEntry } from './manifest.js';
import {
  isWellFormedId,
  SNAPSHOT_REF_PREFIX,
  snapshotRef,
  UNDONE_REF_PREFIX,
  undoneRef,
} from './snapshot-id.js';
import type { Store } from './store.js';

/** What a snapshot did to one path, as `log` shows it. */
export type SnapshotFileOp = 'add' | 'update' | 'delete' | 'none';

export interface SnapshotFile {
  /** Relative to the root the caller gave (`../…` when the snapshot was taken from a wider root). */
  path: string;
  op: SnapshotFileOp;
}

export interface SnapshotInfo {
  id: string;
  ref: string;
  commit: string;
  /** ISO 8601 UTC, milliseconds. */
  time: string;
  message: string;
  /** Every touched path, absent ones included, relative to the caller's root. */
  paths: string[];
  files: SnapshotFile[];
  /** Set once `markUndone` recorded that the snapshot was restored. */
  undone: { time: string } | null;
  /**
   * Why the snapshot cannot be used (its ref, commit or manifest is broken or hostile), or null.
   * An invalid snapshot has no time, message or paths; `log` lists it, `undo` refuses it.
   */
  invalid: string | null;
}

/** A snapshot read from the store: its public description plus the manifest undo needs. */
export interface LoadedSnapshot {
  info: SnapshotInfo;
  manifest: Manifest;
}

// A git "not found" from isomorphic-git (unknown ref or object).
const isNotFound = (error: unknown) => (error as { code?: string } | null)?.code === 'NotFoundError';

function fileOp(entry: ManifestEntry): SnapshotFileOp {
  if (entry.before === null) return entry.after === null ? 'none' : 'add';
  return entry.after === null ? 'delete' : 'update';
}

/** A work-tree-relative path seen from the caller's root. */
export function pathFromRoot(store: Store, storePath: string): string {
  return store.prefix === '' ? storePath : posix.relative(store.prefix, storePath);
}

/** The ids of every snapshot in the store (or of every redo record), in ref order (not time order). */
export async function listSnapshotIds(store: Store, prefix: string = SNAPSHOT_REF_PREFIX): Promise<string[]> {
  return git.listRefs({ fs: store.fs, gitdir: store.gitdir, filepath: prefix });
}

async function readUndone(store: Store, id: string): Promise<{ time: string } | null> {
  let oid: string;
  try {
    oid = await git.resolveRef({ fs: store.fs, gitdir: store.gitdir, ref: undoneRef(id) });
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
  const { tag } = await git.readTag({ fs: store.fs, gitdir: store.gitdir, oid });
  return { time: new Date(tag.tagger.timestamp * 1000).toISOString() };
}

/** The ids that `markUndone` recorded, to skip reading a tag for every other snapshot. */
export async function listUndoneIds(store: Store): Promise<Set<string>> {
  return new Set(await git.listRefs({ fs: store.fs, gitdir: store.gitdir, filepath: UNDONE_REF_PREFIX }));
}

/** Resolves a snapshot's ref (or its redo record's) to its commit id, or null when there is none. */
export async function resolveSnapshot(
  store: Store,
  id: string,
  prefix: string = SNAPSHOT_REF_PREFIX,
): Promise<string | null> {
  if (!isWellFormedId(id)) return null;
  try {
    return await git.resolveRef({ fs: store.fs, gitdir: store.gitdir, ref: `${prefix}/${id}` });
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Reads snapshot `id` (whose ref resolves to `commit`): its manifest and description. */
export async function loadSnapshot(
  store: Store,
  id: string,
  commit: string,
  undoneIds: ReadonlySet<string>,
  cache: object,
  ref: string = snapshotRef(id),
): Promise<LoadedSnapshot> {
  const { fs, gitdir } = store;
  let manifestBytes: Uint8Array;
  try {
    const { commit: commitObject } = await git.readCommit({ fs, gitdir, oid: commit, cache });
    ({ blob: manifestBytes } = await git.readBlob({
      fs,
      gitdir,
      oid: commitObject.tree,
      filepath: MANIFEST_NAME,
      cache,
    }));
  } catch (error) {
    if (!isNotFound(error)) throw error;
    throw new PatchsmithError(
      'STATE_INVALID',
      `snapshot ${id}: its commit or manifest is missing from the store`,
    );
  }
  const manifest = decodeManifest(manifestBytes, id);
  const files = manifest.entries.map((entry) => ({
    path: pathFromRoot(store, entry.path),
    op: fileOp(entry),
  }));
  const info: SnapshotInfo = {
    id,
    ref,
    commit,
    time: manifest.time,
    message: manifest.message,
    paths: files.map((f) => f.path),
    files,
    undone: undoneIds.has(id) ? await readUndone(store, id) : null,
    invalid: null,
  };
  return { info, manifest };
}

/** How `log` shows a snapshot that cannot be read: its id and ref, and why. */
export function invalidSnapshotInfo(id: string, commit: string | null, error: unknown): SnapshotInfo {
  const reason =
    error instanceof PatchsmithError
      ? error.message
      : `snapshot ${id} cannot be read: ${(error as Error).message}`;
  return {
    id,
    ref: snapshotRef(id),
    commit: commit ?? '',
    time: '',
    message: '',
    paths: [],
    files: [],
    undone: null,
    invalid: reason,
  };
}

/** Newest first: by recorded time, then by id (ids carry the time to the second). */
export function compareNewestFirst(a: SnapshotInfo, b: SnapshotInfo): number {
  if (a.time !== b.time) return a.time < b.time ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

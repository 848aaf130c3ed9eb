import { resolve } from 'node:path';
import {
  hashBytes,
  IO_CONCURRENCY,
  isSymlinkMode,
  mapLimit,
  PatchsmithError,
  SYMLINK_MODE,
} from '@patchsmith/core';
import type { FileState, Plan, PlannedWrite } from '@patchsmith/planner';
import git, { type TreeEntry } from 'isomorphic-git';
import { readDiskState } from './disk-state.js';
import { defaultFs, type SnapshotFs } from './fs.js';
import {
  encodeManifest,
  FILES_DIR_NAME,
  MANIFEST_NAME,
  type Manifest,
  type ManifestEntry,
} from './manifest.js';
import { assertSafeRelativePath, toStorePath } from './paths.js';
import { listSnapshotIds, loadSnapshot, resolveSnapshot } from './read-snapshot.js';
import {
  isWellFormedId,
  newSnapshotId,
  REDO_REF_PREFIX,
  redoRef,
  SNAPSHOT_REF_PREFIX,
  snapshotRef,
} from './snapshot-id.js';
import { openStore, type Store, storeRepair } from './store.js';
import { type TreeFile, writeNestedTree } from './tree.js';
import { writeBlob } from './write-blob.js';

export interface CreateSnapshotOptions {
  /** The root the plan's paths are relative to. */
  root: string;
  /** The plan about to be applied; only `writes` is read. */
  plan: Pick<Plan, 'writes'>;
  /** Shown by `log` (e.g. the patch summary). */
  message?: string;
  fs?: SnapshotFs;
  /**
   * The caller's transaction has just checked, under its lock, that the disk holds every write's
   * `before` (`applyPlan`'s `beforeFirstWrite`): the before contents the plan carries are recorded
   * as they are, and the files are not read again. Without it the files are read and compared.
   */
  checked?: boolean;
  /**
   * The plan is an undo of snapshot `redoOf`: record what it overwrites as that snapshot's redo
   * record (`refs/patchsmith/redo/<id>`, replacing an older one), not as a new snapshot.
   */
  redoOf?: string;
}

export interface SnapshotHandle {
  id: string;
  /** The private ref that keeps the ghost commit: `refs/patchsmith/snapshots/<id>`. */
  ref: string;
  /** The ghost commit's id. */
  commit: string;
}

let lastTime = 0;
/** Now, but strictly after the previous snapshot of this process, so newest-first order never ties. */
function snapshotTime(): Date {
  lastTime = Math.max(Date.now(), lastTime + 1);
  return new Date(lastTime);
}

export const SNAPSHOT_AUTHOR = { name: 'patchsmith', email: 'patchsmith@localhost' } as const;

/** A mode as the manifest keeps it: permission bits, or `SYMLINK_MODE` for a link. */
const recordedMode = (mode: number) => (isSymlinkMode(mode) ? SYMLINK_MODE : mode & 0o7777);

/** The last write for each path wins, as the plan's final effect; the first-seen order is kept. */
function finalWrites(writes: readonly PlannedWrite[]): PlannedWrite[] {
  const byPath = new Map<string, PlannedWrite>();
  for (const write of writes) byPath.set(write.path, write);
  return [...byPath.values()];
}

// The disk still holds what the planner read: the same bytes (`diskHash`), or still nothing there.
function matchesPlannedBefore(write: PlannedWrite, state: FileState, diskHash: string | null): boolean {
  return write.before === null ? state.kind === 'missing' : diskHash === write.before.hash;
}

/** A path's before state and its content hash, as the snapshot records them. */
interface BeforeState {
  state: FileState;
  hash: string | null;
  /** Read from the disk now (and so to be compared with the plan), rather than taken from the plan. */
  read: boolean;
}

/**
 * The before state of one write. After the transaction's check (`checked`), the plan's own: that
 * check read the file under the lock and found the hash the plan holds, so the bytes the plan
 * carries (the ones that were hashed) are what is on disk, and reading them again would only
 * read the same bytes (and bytes that are not those of the hash fail the read-back of the
 * snapshot, before anything is written). Otherwise, or for a plan that does not carry the bytes,
 * what the disk holds.
 */
async function beforeState(
  fs: SnapshotFs,
  root: string,
  write: PlannedWrite,
  checked: boolean,
): Promise<BeforeState> {
  const { before } = write;
  if (checked && before === null) return { state: { kind: 'missing' }, hash: null, read: false };
  if (checked && before?.bytes !== undefined) {
    return {
      state: { kind: 'file', bytes: before.bytes, mode: before.mode },
      hash: before.hash,
      read: false,
    };
  }
  const state = await readDiskState(fs, root, write.path);
  return { state, hash: state.kind === 'file' ? state.hash : null, read: true };
}

function describeState(state: FileState): string {
  if (state.kind === 'file') return 'its content changed since it was planned';
  if (state.kind === 'missing') return 'it was removed since it was planned';
  if (state.kind === 'directory') return 'it is now a directory';
  return state.message;
}

// Another snapshot already claimed this id (two in the same second drew the same suffix).
const isRefTaken = (error: unknown) => (error as { code?: string } | null)?.code === 'AlreadyExistsError';

/** Writes the manifest, the top tree and the commit for `id`, then claims its ref (never overwriting). */
async function commitSnapshot(
  store: Store,
  manifest: Manifest,
  filesTree: string | null,
  ref: string,
): Promise<SnapshotHandle> {
  const manifestBlob = await git.writeBlob({
    fs: store.fs,
    gitdir: store.gitdir,
    blob: encodeManifest(manifest),
  });
  const top: TreeEntry[] = [{ mode: '100644', path: MANIFEST_NAME, oid: manifestBlob, type: 'blob' }];
  if (filesTree !== null) top.push({ mode: '040000', path: FILES_DIR_NAME, oid: filesTree, type: 'tree' });
  const tree = await git.writeTree({ fs: store.fs, gitdir: store.gitdir, tree: top });
  const seconds = Math.floor(Date.parse(manifest.time) / 1000);
  const signature = { ...SNAPSHOT_AUTHOR, timestamp: seconds, timezoneOffset: 0 };
  const subject = manifest.message === '' ? `patchsmith snapshot ${manifest.id}` : manifest.message;
  const commit = await git.writeCommit({
    fs: store.fs,
    gitdir: store.gitdir,
    commit: {
      message: `${subject}\n\nPatchsmith-Snapshot: ${manifest.id}\n`,
      tree,
      parent: [],
      author: signature,
      committer: signature,
    },
  });
  await git.writeRef({ fs: store.fs, gitdir: store.gitdir, ref, value: commit });
  return { id: manifest.id, ref, commit };
}

/**
 * SPEC §4.3: records the before state of every path the plan writes as a ghost commit, plus the
 * after state it is about to write, so `planUndo` can restore it and notice later edits. Writes
 * only git objects and one private ref: never HEAD, the index, a branch or the work tree.
 * Throws `STALE` (naming the files) when the disk no longer holds what was planned (with
 * `checked`, the transaction's check has said so already, and the files are not read), and
 * `IO_ERROR` / `STATE_INVALID` ("no snapshot could be recorded ... nothing was written") when the
 * store cannot keep it: the snapshot is read back before its id is returned.
 */
export async function createSnapshot(options: CreateSnapshotOptions): Promise<SnapshotHandle> {
  const fs = options.fs ?? defaultFs;
  const writes = finalWrites(options.plan.writes);
  for (const write of writes) assertSafeRelativePath(write.path);
  if (options.redoOf !== undefined && !isWellFormedId(options.redoOf)) {
    throw new PatchsmithError('NO_SNAPSHOT', `there is no snapshot ${options.redoOf}`);
  }

  // Checked before the store is opened, so a stale plan leaves nothing behind (not even a new store).
  const root = resolve(options.root);
  const found = await mapLimit(writes, IO_CONCURRENCY, (write) =>
    beforeState(fs, root, write, options.checked ?? false),
  );
  const states = found.map((before) => before.state);
  const hashes = found.map((before) => before.hash);
  const staleIndexes = writes.flatMap((write, i) =>
    !found[i]!.read || matchesPlannedBefore(write, states[i]!, hashes[i] ?? null) ? [] : [i],
  );
  if (staleIndexes.length > 0) {
    const described = staleIndexes.map((i) => `${writes[i]!.path} (${describeState(states[i]!)})`);
    throw new PatchsmithError('STALE', `files changed since the plan was made: ${described.join(', ')}`, {
      path: writes[staleIndexes[0]!]!.path,
    });
  }

  const message = options.message?.trim() ?? '';
  let store: Store | null = null;
  let handle: SnapshotHandle | null = null;
  try {
    store = await openStore(root, fs, true);
    if (store === null) throw new PatchsmithError('IO_ERROR', `cannot create a snapshot store for ${root}`);
    if (options.redoOf !== undefined) await dropRef(store, redoRef(options.redoOf));
    const recorded = await recordSnapshot(store, writes, states, hashes, message, options.redoOf);
    handle = recorded.handle;
    await verifySnapshot(
      store,
      recorded.handle,
      recorded.entries,
      options.redoOf === undefined ? SNAPSHOT_REF_PREFIX : REDO_REF_PREFIX,
    );
    return recorded.handle;
  } catch (error) {
    if (store !== null && handle !== null) await dropRef(store, handle.ref);
    throw snapshotFailed(store, error);
  }
}

/** Stores the before contents, the manifest and the commit, and claims a fresh id's ref. */
async function recordSnapshot(
  store: Store,
  writes: readonly PlannedWrite[],
  states: readonly FileState[],
  hashes: readonly (string | null)[],
  message: string,
  redoOf: string | undefined,
): Promise<{ handle: SnapshotHandle; entries: ManifestEntry[] }> {
  const treeFiles: TreeFile[] = [];
  const entries = await mapLimit(writes, IO_CONCURRENCY, async (write, i): Promise<ManifestEntry> => {
    const state = states[i] as FileState;
    const path = toStorePath(store.prefix, write.path);
    const after =
      write.after === null
        ? null
        : { hash: hashBytes(write.after.bytes), mode: recordedMode(write.after.mode) };
    if (state.kind !== 'file') return { path, before: null, after };
    const blob = await writeBlob(store, state.bytes);
    treeFiles.push({ path, blob, executable: (state.mode & 0o111) !== 0, link: isSymlinkMode(state.mode) });
    return {
      path,
      before: { hash: hashes[i]!, mode: state.mode, size: state.bytes.byteLength, blob },
      after,
    };
  });

  const filesTree = treeFiles.length === 0 ? null : await writeNestedTree(store, treeFiles);
  const now = snapshotTime();
  const base = {
    format: 'patchsmith-snapshot',
    version: 1,
    time: now.toISOString(),
    root: store.prefix,
  } as const;
  if (redoOf !== undefined) {
    const manifest: Manifest = { ...base, id: redoOf, message, entries };
    return { handle: await commitSnapshot(store, manifest, filesTree, redoRef(redoOf)), entries };
  }
  for (let attempt = 0; ; attempt++) {
    const manifest: Manifest = { ...base, id: newSnapshotId(now), message, entries };
    try {
      return { handle: await commitSnapshot(store, manifest, filesTree, snapshotRef(manifest.id)), entries };
    } catch (error) {
      if (!isRefTaken(error) || attempt >= 20) throw error;
    }
  }
}

/**
 * Reads the snapshot back the way `undo` will (a fresh look at the store, the ref listed and
 * resolved, the manifest decoded, every saved content hashed), so an id is only ever handed out
 * for a snapshot that undo can restore: a store that takes writes but keeps nothing is caught here.
 */
async function verifySnapshot(
  store: Store,
  handle: SnapshotHandle,
  entries: readonly ManifestEntry[],
  prefix: string,
) {
  const fail = (what: string) =>
    new PatchsmithError('STATE_INVALID', `reading snapshot ${handle.id} back, ${what}`);
  const reopened = await openStore(store.root, store.fs, false);
  if (reopened === null || reopened.gitdir !== store.gitdir)
    throw fail('the store is not found where it was written');
  if (!(await listSnapshotIds(reopened, prefix)).includes(handle.id))
    throw fail(`${handle.ref} is not listed`);
  if ((await resolveSnapshot(reopened, handle.id, prefix)) !== handle.commit)
    throw fail(`${handle.ref} does not lead to its commit`);
  const cache = {};
  const { manifest } = await loadSnapshot(reopened, handle.id, handle.commit, new Set(), cache, handle.ref);
  if (JSON.stringify(manifest.entries) !== JSON.stringify(entries))
    throw fail('its manifest differs from what was written');
  await mapLimit(entries, IO_CONCURRENCY, async (entry) => {
    if (entry.before === null) return;
    const { blob } = await git.readBlob({
      fs: store.fs,
      gitdir: store.gitdir,
      oid: entry.before.blob,
      cache,
    });
    if (hashBytes(blob) !== entry.before.hash) throw fail(`the saved content of ${entry.path} differs`);
  });
}

/** A ref to a snapshot that failed its check must not be what the next `undo` finds. */
async function dropRef(store: Store, ref: string): Promise<void> {
  await git.deleteRef({ fs: store.fs, gitdir: store.gitdir, ref }).catch(() => {});
}

// A failed system call (ENOSPC, EACCES, ...), as opposed to a store whose content is wrong.
const isSystemError = (error: unknown) =>
  /^E[A-Z]+$/.test(String((error as { code?: unknown } | null)?.code));

/**
 * Why no snapshot exists, said so that no one takes the apply for undoable: the store, the cause,
 * that the tree was not touched, and the ways on.
 */
function snapshotFailed(store: Store | null, error: unknown): PatchsmithError {
  const code =
    error instanceof PatchsmithError ? error.code : isSystemError(error) ? 'IO_ERROR' : 'STATE_INVALID';
  const cause = (error as { data?: { message?: unknown } }).data?.message ?? (error as Error).message;
  const message =
    store === null
      ? `no snapshot could be recorded: ${cause}; nothing was written; run with --no-snapshot`
      : `no snapshot could be recorded: the snapshot store at ${store.gitdir} is broken (${cause}); nothing was written; run with --no-snapshot, or ${storeRepair(store)}`;
  return new PatchsmithError(code, message);
}

import { randomBytes } from 'node:crypto';

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A short, time-ordered id: `YYYYMMDD-HHMMSS-xxxx` (UTC, then 4 random hex digits so two snapshots
 * in the same second differ). Ids sort like their times down to the second.
 */
export function newSnapshotId(now: Date, suffix: string = randomBytes(2).toString('hex')): string {
  const date = `${now.getUTCFullYear()}${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())}`;
  const time = `${two(now.getUTCHours())}${two(now.getUTCMinutes())}${two(now.getUTCSeconds())}`;
  return `${date}-${time}-${suffix}`;
}

// What an id may hold: safe in a ref name and a file name, never `..`-like.
const ID_PATTERN = /^[0-9A-Za-z][0-9A-Za-z_-]{0,63}$/;

/** Whether a caller-supplied id can name a snapshot ref at all (guards against ref-name injection). */
export function isWellFormedId(id: string): boolean {
  return ID_PATTERN.test(id);
}

export const SNAPSHOT_REF_PREFIX = 'refs/patchsmith/snapshots';
export const UNDONE_REF_PREFIX = 'refs/patchsmith/undone';

/** The private ref that keeps a snapshot's ghost commit alive. */
export function snapshotRef(id: string): string {
  return `${SNAPSHOT_REF_PREFIX}/${id}`;
}

/** The private ref that records that a snapshot was undone. */
export function undoneRef(id: string): string {
  return `${UNDONE_REF_PREFIX}/${id}`;
}

export const REDO_REF_PREFIX = 'refs/patchsmith/redo';

/**
 * The private ref of what an undo of snapshot `id` overwrote: a ghost commit of the undo's own
 * plan (its manifest carries `id`), so `redo` restores it the way `undo` restores a snapshot.
 */
export function redoRef(id: string): string {
  return `${REDO_REF_PREFIX}/${id}`;
}

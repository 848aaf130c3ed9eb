import { PatchsmithError, SYMLINK_MODE } from '@patchsmith/core';
import { treePathRefusal } from './paths.js';

/** The before state of one path: its content, kept as a blob in the snapshot tree. */
export interface ManifestBefore {
  /** sha256 hex of the bytes (the planner's `hashBytes`). */
  hash: string;
  /** Exact permission bits (`mode & 0o7777`), or `SYMLINK_MODE` for a symbolic link; the tree keeps 100644 / 100755 / 120000. */
  mode: number;
  size: number;
  /** The git blob id holding the bytes. */
  blob: string;
}

/** The state the apply was about to leave: what undo expects to find. */
export interface ManifestAfter {
  hash: string;
  mode: number;
}

export interface ManifestEntry {
  /** Work-tree-relative path (root-relative when there is no repository), `/`-separated. */
  path: string;
  /** null: the path was absent before the apply. */
  before: ManifestBefore | null;
  /** null: the apply removes the path. */
  after: ManifestAfter | null;
}

export interface Manifest {
  format: 'patchsmith-snapshot';
  version: 1;
  id: string;
  /** ISO 8601, milliseconds, UTC. */
  time: string;
  message: string;
  /** Where the root was inside the work tree when the snapshot was taken (`''` at the top). */
  root: string;
  entries: ManifestEntry[];
}

export const MANIFEST_NAME = 'manifest.json';
export const FILES_DIR_NAME = 'files';

export function encodeManifest(manifest: Manifest): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
}

// A plain JSON object (not an array, not null).
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
// A lowercase hex digest of the given length.
const isHex = (v: unknown, length: number) =>
  typeof v === 'string' && v.length === length && /^[0-9a-f]+$/.test(v);
// A git object id: SHA-1, or SHA-256 in a repository that uses it.
const isObjectId = (v: unknown) => isHex(v, 40) || isHex(v, 64);
// A permission-bits number.
const isMode = (v: unknown) =>
  v === SYMLINK_MODE || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0o7777);
// A byte count.
const isSize = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
// The time as `toISOString` writes it, and a real date (`log` formats it).
const isIsoTime = (v: unknown) =>
  typeof v === 'string' &&
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(v) &&
  Number.isFinite(Date.parse(v));

/** The first field of a before state that is wrong, as `name: reason`, or null. */
function beforeProblem(v: unknown): string | null {
  if (!isRecord(v)) return 'not an object';
  if (!isHex(v.hash, 64)) return 'hash: not a sha256 hex digest';
  if (!isMode(v.mode)) return 'mode: not permission bits';
  if (!isSize(v.size)) return 'size: not a byte count';
  if (!isObjectId(v.blob)) return 'blob: not a git object id';
  return null;
}

function afterProblem(v: unknown): string | null {
  if (!isRecord(v)) return 'not an object';
  if (!isHex(v.hash, 64)) return 'hash: not a sha256 hex digest';
  if (!isMode(v.mode)) return 'mode: not permission bits';
  return null;
}

/** The first field of an entry that is wrong (`field: reason`), or null. */
function entryProblem(v: unknown, seen: Set<string>): string | null {
  if (!isRecord(v)) return 'not an object';
  if (typeof v.path !== 'string') return 'path: not a string';
  const refusal = treePathRefusal(v.path);
  if (refusal !== null) return `path: ${refusal.message}`;
  if (seen.has(v.path)) return `path: ${v.path} is listed twice`;
  seen.add(v.path);
  const before = v.before === null ? null : beforeProblem(v.before);
  if (before !== null) return `before.${before}`;
  const after = v.after === null ? null : afterProblem(v.after);
  if (after !== null) return `after.${after}`;
  return null;
}

/** The first top-level field of a manifest that is wrong (`field: reason`), or null. */
function manifestProblem(value: unknown, id: string): string | null {
  if (!isRecord(value)) return '(top level): not an object';
  if (value.format !== 'patchsmith-snapshot') return 'format: not "patchsmith-snapshot"';
  if (value.version !== 1) return 'version: not 1 (written by another version?)';
  if (value.id !== id) return `id: ${JSON.stringify(value.id)} is not the id of its ref`;
  if (!isIsoTime(value.time)) return 'time: not an ISO 8601 UTC time';
  if (typeof value.message !== 'string') return 'message: not a string';
  if (typeof value.root !== 'string') return 'root: not a string';
  if (value.root !== '' && treePathRefusal(value.root) !== null) return 'root: not a relative folder';
  if (!Array.isArray(value.entries)) return 'entries: not an array';
  const seen = new Set<string>();
  for (const [i, entry] of value.entries.entries()) {
    const problem = entryProblem(entry, seen);
    if (problem !== null) return `entries[${i}].${problem}`;
  }
  return null;
}

/** A manifest that cannot be used, naming the snapshot and the field. */
export function invalidManifest(id: string, problem: string): PatchsmithError {
  return new PatchsmithError('STATE_INVALID', `snapshot ${id}: invalid manifest: ${problem}`);
}

/**
 * Reads a manifest back. The store is input like any other (a cloned repository may carry
 * `refs/patchsmith/...`): anything this version would not have written, a path that is absolute,
 * not canonical, climbing out or into `.git/` included, is `STATE_INVALID` naming the field.
 */
export function decodeManifest(bytes: Uint8Array, id: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw invalidManifest(id, 'not valid UTF-8 JSON');
  }
  const problem = manifestProblem(value, id);
  if (problem !== null) throw invalidManifest(id, problem);
  return value as Manifest;
}

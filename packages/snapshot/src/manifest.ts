import { PatchsmithError } from '@patchsmith/grammar';

/** The before state of one path: its content, kept as a blob in the snapshot tree. */
export interface ManifestBefore {
  /** sha256 hex of the bytes (the planner's `hashBytes`). */
  hash: string;
  /** Exact permission bits (`mode & 0o7777`); the tree only keeps 100644 / 100755. */
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
// A permission-bits number.
const isMode = (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 0o7777;

const isBefore = (v: unknown): v is ManifestBefore =>
  isRecord(v) && isHex(v.hash, 64) && isMode(v.mode) && Number.isInteger(v.size) && isHex(v.blob, 40);
const isAfter = (v: unknown): v is ManifestAfter => isRecord(v) && isHex(v.hash, 64) && isMode(v.mode);
const isEntry = (v: unknown): v is ManifestEntry =>
  isRecord(v) &&
  typeof v.path === 'string' &&
  v.path !== '' &&
  (v.before === null || isBefore(v.before)) &&
  (v.after === null || isAfter(v.after));

/** Reads a manifest back, refusing anything this version did not write (`IO_ERROR`). */
export function decodeManifest(bytes: Uint8Array, id: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new PatchsmithError('IO_ERROR', `snapshot ${id}: the manifest is not valid JSON`);
  }
  const valid =
    isRecord(value) &&
    value.format === 'patchsmith-snapshot' &&
    value.version === 1 &&
    typeof value.id === 'string' &&
    typeof value.time === 'string' &&
    typeof value.message === 'string' &&
    typeof value.root === 'string' &&
    Array.isArray(value.entries) &&
    value.entries.every(isEntry);
  if (!valid)
    throw new PatchsmithError(
      'IO_ERROR',
      `snapshot ${id}: the manifest is not a patchsmith snapshot manifest`,
    );
  return value as unknown as Manifest;
}

import { hashBytes } from '@patchsmith/core';

/**
 * The version of a file the model read before writing its edit: the content it was shown, or only
 * that content's sha256 hex, which the tool can turn back into content when this process showed
 * it (through `viewFile`).
 */
export type ReadVersion = { content: string | Uint8Array } | { hash: string };

/** What the host says the model read, by path (relative to the root, as the edit names them). */
export type ReadVersions = Readonly<Record<string, ReadVersion>>;

/** The most bytes of viewed files kept for merging; beyond it the oldest views are forgotten. */
const VIEWED_BYTES = 64 * 1024 * 1024;

/** Content shown by `viewFile` in this process, by hash, oldest first (a Map keeps insertion order). */
const viewed = new Map<string, Uint8Array>();
let viewedBytes = 0;

/** Keeps what a view showed, so an edit that names it by hash can be merged against it later. */
export function rememberViewed(hash: string, bytes: Uint8Array): void {
  if (bytes.length > VIEWED_BYTES) return;
  const known = viewed.get(hash);
  if (known !== undefined) {
    // Seen again: now the newest.
    viewed.delete(hash);
    viewed.set(hash, known);
    return;
  }
  viewed.set(hash, bytes);
  viewedBytes += bytes.length;
  for (const [oldest, content] of viewed) {
    if (viewedBytes <= VIEWED_BYTES) break;
    viewed.delete(oldest);
    viewedBytes -= content.length;
  }
}

const encoder = new TextEncoder();

/** The version read as hash and, when known, bytes (the hash of given content is computed, never trusted). */
export function resolveReadVersion(version: ReadVersion): { hash: string; bytes: Uint8Array | undefined } {
  if ('content' in version) {
    const bytes = typeof version.content === 'string' ? encoder.encode(version.content) : version.content;
    return { hash: hashBytes(bytes), bytes };
  }
  const hash = version.hash.toLowerCase();
  return { hash, bytes: viewed.get(hash) };
}

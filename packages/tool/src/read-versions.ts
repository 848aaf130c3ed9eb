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

/**
 * Content shown by `viewFile` in this process, by file and hash, oldest first (a Map keeps
 * insertion order). Keyed by file too: a hash recalls only what was shown of that same file.
 */
const viewed = new Map<string, Uint8Array>();
let viewedBytes = 0;

/** The cache key of one version of one file (an absolute path holds no NUL). */
const viewKey = (file: string, hash: string) => `${file}\0${hash}`;

/** Keeps what a view of `file` (absolute) showed, so an edit that names it by hash can be merged against it later. */
export function rememberViewed(file: string, hash: string, bytes: Uint8Array): void {
  if (bytes.length > VIEWED_BYTES) return;
  const key = viewKey(file, hash);
  const known = viewed.get(key);
  if (known !== undefined) {
    // Seen again: now the newest.
    viewed.delete(key);
    viewed.set(key, known);
    return;
  }
  viewed.set(key, bytes);
  viewedBytes += bytes.length;
  for (const [oldest, content] of viewed) {
    if (viewedBytes <= VIEWED_BYTES) break;
    viewed.delete(oldest);
    viewedBytes -= content.length;
  }
}

const encoder = new TextEncoder();

/** The sha256 hex of a version: computed from given content, never trusted. */
export function readVersionHash(version: ReadVersion): string {
  return 'content' in version ? hashBytes(contentBytes(version.content)) : version.hash.toLowerCase();
}

const contentBytes = (content: string | Uint8Array) =>
  typeof content === 'string' ? encoder.encode(content) : content;

/**
 * The version of `file` (absolute) read, as hash and, when known, bytes (the hash of given
 * content is computed, never trusted).
 */
export function resolveReadVersion(
  file: string,
  version: ReadVersion,
): { hash: string; bytes: Uint8Array | undefined } {
  if ('content' in version) {
    const bytes = contentBytes(version.content);
    return { hash: hashBytes(bytes), bytes };
  }
  const hash = version.hash.toLowerCase();
  return { hash, bytes: viewed.get(viewKey(file, hash)) };
}

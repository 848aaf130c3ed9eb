import { cryptoModule } from './hash.js';

/**
 * git's object id of a file's content: the sha1 hex of `blob <length>\0<bytes>`, what an
 * `index <old>..<new>` line of `git diff` names (abbreviated unless `--full-index`/`--binary`).
 */
export function gitBlobId(bytes: Uint8Array): string {
  return cryptoModule().createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** An id of zeros: git's name for "no file" on an index line's side (a new or a deleted file). */
export function isNullBlobId(id: string): boolean {
  return /^0+$/.test(id);
}

/**
 * The largest content a `GIT binary patch` hunk may give or a delta may announce: both are
 * allocated before they are checked, so a patch of a few bytes cannot claim gigabytes.
 */
export const MAX_BINARY_BYTES = 512 * 1024 * 1024;

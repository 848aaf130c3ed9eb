import { createHash } from 'node:crypto';

/** sha256 hex of some bytes: how a plan records a file's before state, and how a transaction checks staleness. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

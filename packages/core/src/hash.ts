import { createRequire } from 'node:module';

type CryptoModule = typeof import('node:crypto');
let crypto: CryptoModule | undefined;

/**
 * sha256 hex of some bytes: how a plan records a file's before state, and how a snapshot checks it.
 * node:crypto is loaded on the first hash, not on import: it costs ~1 ms (11 M instructions,
 * cachegrind) of a start-up, and an apply without a snapshot hashes nothing.
 */
export function hashBytes(bytes: Uint8Array): string {
  crypto ??= createRequire(import.meta.url)('node:crypto') as CryptoModule;
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

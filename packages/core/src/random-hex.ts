/**
 * `length` random hex digits: names a transaction's temporary files and a lock's generation.
 * Unique, not secret (whoever can read the lock file reads its token; temporary files are created
 * exclusively), so `Math.random` (seeded by V8 from the OS) serves, without loading node:crypto.
 */
export function randomHex(length: number): string {
  let hex = '';
  while (hex.length < length)
    hex += Math.floor(Math.random() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0');
  return hex.slice(0, length);
}

import { createHash } from 'node:crypto';

/** sha256 hex of some bytes, the same digest the planner records as a file's `before.hash`. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The permission bits of a mode (file type bits dropped), as a plan records them. */
export function permissionBits(mode: number): number {
  return mode & 0o7777;
}

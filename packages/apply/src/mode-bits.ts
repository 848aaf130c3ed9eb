/** The permission bits of a mode (file type bits dropped), as a plan records them. */
export function permissionBits(mode: number): number {
  return mode & 0o7777;
}

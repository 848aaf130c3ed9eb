import { hashBytes } from '@patchsmith/core';

/** The hash of a file's bytes: the one its reader computed (`FileState.hash`), or computed now. */
export function fileHash(file: { bytes: Uint8Array; hash?: string }): string {
  return file.hash ?? hashBytes(file.bytes);
}

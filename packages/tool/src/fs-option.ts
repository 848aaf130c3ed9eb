import type { EditError, PatchsmithFs } from '@patchsmith/core';

/** `{ fs }` when a host gave one: apply's options, whose own default (the disk) stays otherwise. */
export function fsOption(fs: PatchsmithFs | undefined): { fs?: PatchsmithFs } {
  return fs === undefined ? {} : { fs };
}

/**
 * The refusal of a snapshot (or an undo, which restores one) over an fs that is not the disk:
 * isomorphic-git writes the store on the real disk, beside files it would not see.
 */
export function snapshotNeedsDisk(what: string): EditError {
  return {
    code: 'NO_SNAPSHOT',
    message: `${what} needs the real disk (the snapshot store is kept there), and the fs given is not the disk; with a virtual fs pass snapshot: false`,
  };
}

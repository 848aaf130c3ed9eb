import { PatchsmithError } from '@patchsmith/core';
import { errnoOf, type TransactionFs } from './fs.js';
import { IoFailure } from './io-failure.js';

const decoder = new TextDecoder();

// The file system has no symbolic links (or refuses to make them here).
const noSymlinks = (error: unknown) =>
  ['EPERM', 'ENOSYS', 'EOPNOTSUPP', 'ENOTSUP'].includes(errnoOf(error) ?? '');

/**
 * Stages a symbolic link to `target` (the link's content as bytes) at `temp`, for the rename
 * that puts it in place. A file system without links is a clear refusal, not a copy.
 */
export async function stageLink(fs: TransactionFs, temp: string, target: Uint8Array): Promise<void> {
  try {
    await fs.symlink(decoder.decode(target), temp);
  } catch (error) {
    if (noSymlinks(error)) {
      throw new PatchsmithError(
        'IO_ERROR',
        'this file system cannot hold symbolic links (git mode 120000); check out with core.symlinks=false instead',
      );
    }
    throw new IoFailure('symlink', temp, error);
  }
}

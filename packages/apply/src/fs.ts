import { diskFs, type FsFileHandle, type FsStats, type PatchsmithFs } from '@patchsmith/core';

/** The transaction's names for core's file-system types (one interface for every package). */
export type TransactionStats = FsStats;
export type TransactionFileHandle = FsFileHandle;
/** Every file-system call the transaction makes, so a test can wrap it and fail any one call. */
export type TransactionFs = PatchsmithFs;

export const defaultFs: TransactionFs = diskFs;

/** The `code` of a Node system error (`ENOENT`, ...), if it has one. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

// Nothing is there (or a folder on the way is missing).
export const isMissing = (error: unknown) => errnoOf(error) === 'ENOENT';

/** lstat that answers null for a path that does not exist (or whose parent is not a folder). */
export async function lstatOrNull(fs: TransactionFs, path: string): Promise<TransactionStats | null> {
  try {
    return await fs.lstat(path);
  } catch (error) {
    if (isMissing(error) || errnoOf(error) === 'ENOTDIR') return null;
    throw error;
  }
}

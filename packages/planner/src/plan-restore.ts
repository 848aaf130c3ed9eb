import { hashBytes, PatchsmithError } from '@patchsmith/core';
import { describeChange } from './diff.js';
import { fileHash } from './file-hash.js';
import type { FileState, Plan, PlannedFile, PlannedWrite } from './types.js';

export interface RestoreTarget {
  bytes: Uint8Array;
  mode: number;
}

/** Same bytes and same mode: nothing to restore. */
function sameContent(current: { bytes: Uint8Array; mode: number }, target: RestoreTarget): boolean {
  return current.mode === target.mode && Buffer.from(current.bytes).equals(Buffer.from(target.bytes));
}

/**
 * A plan that brings each path of `targets` to the given content (null = absent), from the state
 * in `current`: add, update or delete as needed, with diffs and counts; paths already as wanted
 * are left out. Used by undo and rollback. A path that cannot be restored (a folder where a file
 * must go, a path the reader refused) throws: undo has no partial answer.
 */
export function planRestore(
  current: ReadonlyMap<string, FileState>,
  targets: ReadonlyMap<string, RestoreTarget | null>,
): Plan {
  const files: PlannedFile[] = [];
  const writes: PlannedWrite[] = [];
  for (const [path, target] of targets) {
    const now = current.get(path) ?? { kind: 'missing' };
    if (now.kind === 'refused') throw new PatchsmithError(now.code, now.message, { path });
    if (now.kind === 'directory') {
      if (target === null) continue;
      // A folder that replaced the file: restorable when its files go (the transaction checks it holds no other).
      if (!removesFileBelow(current, targets, path))
        throw new PatchsmithError('NOT_A_FILE', `cannot restore ${path}: a folder is there now`, { path });
    }
    if (now.kind === 'missing' || now.kind === 'directory') {
      if (target === null) continue;
      files.push({ path, op: 'add', ...describeChange(path, path, null, target.bytes), chunks: [] });
      writes.push({ path, before: null, after: target });
      continue;
    }
    const before = { hash: fileHash(now), mode: now.mode, bytes: now.bytes };
    if (target === null) {
      files.push({ path, op: 'delete', ...describeChange(path, path, now.bytes, null), chunks: [] });
      writes.push({ path, before, after: null });
      continue;
    }
    if (sameContent(now, target)) continue;
    files.push({ path, op: 'update', ...describeChange(path, path, now.bytes, target.bytes), chunks: [] });
    writes.push({ path, before, after: target });
  }
  return { files, writes };
}

/** Whether the restore removes a file below `folder` (a folder that replaced a file goes with its files). */
function removesFileBelow(
  current: ReadonlyMap<string, FileState>,
  targets: ReadonlyMap<string, RestoreTarget | null>,
  folder: string,
): boolean {
  for (const [path, target] of targets) {
    if (target === null && path.startsWith(`${folder}/`) && current.get(path)?.kind === 'file') return true;
  }
  return false;
}

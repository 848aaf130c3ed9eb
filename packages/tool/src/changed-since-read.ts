import { join } from 'node:path';
import { hashBytes } from '@patchsmith/core';
import { type FileState, resolvePatchPath } from '@patchsmith/planner';
import { type ReadVersions, resolveReadVersion } from './read-versions.js';

/**
 * The root-relative paths of the files read that are not now what the model read (changed,
 * gone, or a folder): those an edit is merged into, or refused for.
 */
export function changedSinceRead(
  readVersions: ReadVersions | undefined,
  files: ReadonlyMap<string, FileState>,
  root: string,
): Set<string> {
  const changed = new Set<string>();
  for (const [named, version] of Object.entries(readVersions ?? {})) {
    const resolved = resolvePatchPath(root, named);
    if (!resolved.ok) continue;
    const now = files.get(resolved.path);
    if (now?.kind !== 'file') {
      changed.add(resolved.path);
      continue;
    }
    const read = resolveReadVersion(join(root, resolved.path), version);
    if (read.hash !== (now.hash ?? hashBytes(now.bytes))) changed.add(resolved.path);
  }
  return changed;
}

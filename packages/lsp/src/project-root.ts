import { existsSync } from 'node:fs';
import path from 'node:path';
import { isInsidePath } from '@patchsmith/core';

/**
 * The folder a server should treat as the project of a file: the nearest ancestor holding one of the
 * markers, not climbing above the session root when the file is inside it. Without a marker, the
 * session root (or the file's folder, for a file outside the root).
 */
export function findProjectRoot(filePath: string, markers: readonly string[], sessionRoot: string): string {
  const root = path.resolve(sessionRoot);
  const inside = isInsidePath(path.resolve(filePath), root);
  let dir = path.dirname(path.resolve(filePath));
  for (;;) {
    if (markers.some((marker) => existsSync(path.join(dir, marker)))) return dir;
    if (inside && dir === root) break;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return inside ? root : path.dirname(path.resolve(filePath));
}

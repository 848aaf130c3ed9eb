import type { EditScript } from '@patchsmith/core';
import { resolvePatchPath } from './paths.js';

/**
 * Every canonical path the script reads or writes (move destinations included), deduplicated, in
 * order of first appearance. Paths the policy refuses are left out: `planEdits` reports them.
 */
export function touchedPaths(script: EditScript, root: string): string[] {
  const seen = new Set<string>();
  for (const op of script.operations) {
    const raws = [op.path];
    // A traditional diff's other name is read too: the planner edits whichever of the two exists.
    if (op.kind === 'update')
      for (const other of [op.movePath, op.otherPath]) if (other !== undefined) raws.push(other);
    if (op.kind === 'binary' && op.movePath !== undefined) raws.push(op.movePath);
    for (const raw of raws) {
      const resolved = resolvePatchPath(root, raw);
      if (resolved.ok) seen.add(resolved.path);
    }
  }
  return [...seen];
}

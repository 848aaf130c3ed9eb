import type { EditError } from '@patchsmith/core';
import { belowAFile, type PlanState } from './state.js';

/** The operation that last wrote a file at a path: its line in the patch and its place in the script. */
export interface WrittenBy {
  line: number;
  order: number;
}

/** The folders above `path`, outermost first (`a/b/c` -> `a`, `a/b`). */
function foldersAbove(path: string): string[] {
  const folders: string[] = [];
  for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
    folders.push(path.slice(0, slash));
  }
  return folders;
}

/**
 * SPEC §3 on the tree the plan leaves, not on each step towards it: no file may end up below a
 * file. Checking the final state lets one patch replace a file by a folder (delete `a`, add
 * `a/b`) or a folder by a file (add `a`, delete `a/b`, the order `git diff` prints) in either
 * order. Each clash is reported once, on the one of its two paths the patch wrote later. Linear
 * in the paths' lengths.
 */
export function finalTreeConflicts(state: PlanState, writtenBy: ReadonlyMap<string, WrittenBy>): EditError[] {
  const files = state.filePaths();
  const isFile = new Set(files);
  const errors: EditError[] = [];
  for (const path of files) {
    for (const folder of foldersAbove(path)) {
      if (!isFile.has(folder)) continue;
      const [inner, outer] = [writtenBy.get(path), writtenBy.get(folder)];
      // A clash between two files already there before the patch is not the patch's doing.
      if (inner === undefined && outer === undefined) continue;
      if ((inner?.order ?? -1) >= (outer?.order ?? -1)) errors.push(belowAFile(path, folder, inner!.line));
      else {
        const message = `cannot write ${folder}: it is a folder holding ${path}`;
        errors.push({ code: 'NOT_A_FILE', message, path: folder, line: outer!.line });
      }
    }
  }
  return errors;
}

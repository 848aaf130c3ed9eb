/**
 * Telling a reapplied patch from a wrong one: when a chunk's old lines are not in the file, but
 * every chunk's new lines are, in order, the change is already there. Like `git apply`, the patch
 * is refused either way; the message then says so, so a model stops retrying an edit that landed.
 */

import type { Chunk, EditError, Line, LineModel, ReplaceText } from '@patchsmith/core';
import { locateText } from '@patchsmith/fuzzy';
import { applyChunks, type LocateSettings } from './apply-chunks.js';

/** The chunk read backwards: what it adds it would remove, its hint's sides swapped. */
function reversed(chunk: Chunk): Chunk {
  const back: Chunk = {
    ...chunk,
    lines: chunk.lines.map((l) =>
      l.kind === 'context' ? l : { ...l, kind: l.kind === 'add' ? ('remove' as const) : ('add' as const) },
    ),
  };
  if (chunk.hint !== undefined) {
    const { oldStart, oldLines, newStart, newLines } = chunk.hint;
    back.hint = {
      oldStart: newStart,
      ...(newLines !== undefined && { oldLines: newLines }),
      newStart: oldStart,
      ...(oldLines !== undefined && { newLines: oldLines }),
    };
  }
  return back;
}

/** Every chunk's new side is in the file, in patch order (any candidate will do). */
export function chunksAlreadyApplied(
  lines: LineModel,
  chunks: readonly Chunk[],
  context: LocateSettings & { path: string; exactEndings?: boolean },
): boolean {
  return applyChunks(lines, chunks.map(reversed), { ...context, firstMatch: true }).ok;
}

/** The replacement text is in the file where the search text is not. */
export function replaceAlreadyApplied(lines: readonly Line[], op: ReplaceText): boolean {
  if (op.replace.trim() === '') return false;
  return locateText(
    lines,
    { search: op.replace, replace: op.search },
    { all: false, firstMatch: true, wholeLines: op.wholeLines },
  ).ok;
}

/** The one error of an operation whose change is already in its file. */
export function alreadyAppliedError(path: string, line: number): EditError {
  return {
    code: 'NO_MATCH',
    message:
      `${path}: the patch looks already applied here: the lines it would replace are not in the file, ` +
      'but the lines it would write already are',
    path,
    line,
  };
}

/**
 * Two hunks of one file that share context lines (`@@ -1,3 @@` ending with `c`, then
 * `@@ -3,3 @@` starting with it): git and GNU patch apply them, but located one after the other
 * the second would have to start after the first ends. Where the headers say they overlap, and
 * the overlapping lines are context on both sides with the same text, they become one chunk.
 */
import { type Chunk, oldLines } from '@patchsmith/core';

export function mergeSharedContext(chunks: readonly Chunk[]): Chunk[] {
  const merged: Chunk[] = [];
  for (const chunk of chunks) {
    const previous = merged[merged.length - 1];
    const shared = previous === undefined ? 0 : sharedLines(previous, chunk);
    if (shared === 0) merged.push(chunk);
    else merged[merged.length - 1] = joined(previous!, chunk, shared);
  }
  return merged;
}

/** How many old lines the headers say `b` shares with the end of `a`, when those lines are the same context in both; else 0. */
function sharedLines(a: Chunk, b: Chunk): number {
  if (a.hint === undefined || b.hint === undefined || a.endOfFile) return 0;
  const aOld = oldLines(a).length;
  const bOld = oldLines(b).length;
  const overlap = a.hint.oldStart + aOld - b.hint.oldStart;
  if (aOld === 0 || bOld === 0 || overlap < 1 || overlap > Math.min(aOld, bOld)) return 0;
  const tail = a.lines.slice(-overlap);
  const head = b.lines.slice(0, overlap);
  const sameContext = tail.every(
    (l, i) => l.kind === 'context' && head[i]!.kind === 'context' && head[i]!.text === l.text,
  );
  return sameContext ? overlap : 0;
}

function joined(a: Chunk, b: Chunk, shared: number): Chunk {
  const lines = [...a.lines, ...b.lines.slice(shared)];
  const count = (kind: 'remove' | 'add') =>
    lines.filter((l) => l.kind === 'context' || l.kind === kind).length;
  return {
    ...a,
    lines,
    endOfFile: b.endOfFile,
    hint: {
      oldStart: a.hint!.oldStart,
      oldLines: count('remove'),
      newStart: a.hint!.newStart,
      newLines: count('add'),
    },
  };
}

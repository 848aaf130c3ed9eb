/**
 * A unified-diff section's hunks as chunks: no anchors (git's heading after `@@ … @@` is not one),
 * the header's numbers as the line hint, and `\ No newline at end of file` markers read as a
 * statement about the last line of a side, which must then be the last line of that side.
 */
import type { Chunk, ChunkLine, EditError } from '@patchsmith/core';
import { mergeSharedContext } from './shared-context.js';
import { type LineOf, parseError, type RawHunk, type RawHunkLine } from './unified-section.js';

export interface BuiltHunks {
  chunks: Chunk[];
  /** Line of a marker after a context or removed line: the file must end without a newline. */
  oldMarker?: number;
  /** Line of a marker after a context or added line: the result ends without a newline. */
  newMarker?: number;
}

/** A line of the old side (what the file holds before the patch). */
function onOldSide(kind: RawHunkLine['kind']): boolean {
  return kind === 'context' || kind === 'remove';
}

/** A line of the new side (what the file holds after it). */
function onNewSide(kind: RawHunkLine['kind']): boolean {
  return kind === 'context' || kind === 'add';
}

export function buildHunks(hunks: readonly RawHunk[], lineOf: LineOf): BuiltHunks | EditError {
  const built: BuiltHunks = { chunks: [] };
  for (const [i, hunk] of hunks.entries()) {
    const one = buildHunk(hunk, lineOf);
    if ('code' in one) return one;
    const marker = one.oldMarker ?? one.newMarker;
    if (marker !== undefined && i < hunks.length - 1) {
      return parseError(
        "'\\ No newline at end of file' says the file ends here, but another hunk of this file follows",
        marker,
      );
    }
    built.chunks.push(one.chunk);
    if (one.oldMarker !== undefined) built.oldMarker = one.oldMarker;
    if (one.newMarker !== undefined) built.newMarker = one.newMarker;
  }
  built.chunks = mergeSharedContext(built.chunks);
  return built;
}

function buildHunk(hunk: RawHunk, lineOf: LineOf): (BuiltHunks & { chunk: Chunk }) | EditError {
  // The header's line first: offsets then only grow, so the line counter never walks back.
  const line = lineOf(hunk.offset);
  const lines: ChunkLine[] = [];
  let oldMarker: number | undefined;
  let newMarker: number | undefined;
  let previous: RawHunkLine['kind'] | undefined;
  for (const raw of hunk.lines) {
    const at = lineOf(raw.offset);
    if (raw.kind === 'no-newline') {
      if (previous === undefined) {
        return parseError("'\\ No newline at end of file' must follow the line it speaks of", at);
      }
      // The marker speaks of the line before it: the old side's, the new side's, or both.
      if (onOldSide(previous)) oldMarker = at;
      if (onNewSide(previous)) newMarker = at;
      continue;
    }
    const endedSide =
      oldMarker !== undefined && onOldSide(raw.kind)
        ? oldMarker
        : newMarker !== undefined && onNewSide(raw.kind)
          ? newMarker
          : undefined;
    if (endedSide !== undefined) {
      return parseError(
        `'\\ No newline at end of file' says the line before it is the last of its side, but line ${at} follows on that side`,
        endedSide,
      );
    }
    previous = raw.kind;
    lines.push({ kind: raw.kind, text: raw.text, line: at });
  }
  const chunk: Chunk = {
    anchors: [],
    lines,
    endOfFile: oldMarker !== undefined || newMarker !== undefined,
    line,
  };
  if (hunk.range !== null) chunk.hint = hunk.range;
  return {
    chunks: [chunk],
    chunk,
    ...(oldMarker !== undefined ? { oldMarker } : {}),
    ...(newMarker !== undefined ? { newMarker } : {}),
  };
}

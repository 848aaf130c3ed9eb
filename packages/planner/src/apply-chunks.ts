import { type ChunkLocation, indexFile, locateChunk } from '@patchsmith/fuzzy';
import type { Chunk, EditError } from '@patchsmith/core';
import { firstEnding, hasFinalNewline, type Line, settleEndings } from './lines.js';
import { keepFileIndentation, type RestyledLocation } from './keep-indentation.js';
import { missError, type NearestBudget } from './miss-error.js';
import type { ChunkReport } from './types.js';

/** How chunks are located: the caller's choices from `PlanOptions`, and the plan's search budget. */
export interface LocateSettings {
  firstMatch: boolean;
  similarity?: number;
  nearest: NearestBudget;
}

/** One located chunk: the original lines it replaces and what replaces them. */
interface Edit {
  chunk: number;
  location: RestyledLocation;
}

export type ChunksApplied =
  | { ok: true; lines: Line[]; reports: ChunkReport[] }
  | { ok: false; errors: EditError[] };

/** Copies untouched lines one by one (a spread of a huge slice would overflow the stack). */
function pushRange(out: Line[], lines: readonly Line[], from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const line = lines[i];
    if (line !== undefined) out.push(line);
  }
}

/** A line as a byte-exact diff shows it: a CR before its line feed (or a lone CR ending) is part of the text. */
function rawText(line: Line): string {
  return line.ending === '\r\n' || line.ending === '\r' ? `${line.text}\r` : line.text;
}

/** A byte-exact diff's line: a final `\r` means it ends with CRLF, else it ends with LF. */
function lineAsWritten(text: string): Line {
  return text.endsWith('\r') ? { text: text.slice(0, -1), ending: '\r\n' } : { text, ending: '\n' };
}

/** Without a final newline, a last line written with CRLF keeps its CR (the diff's text ends with it). */
function keepFinalCarriageReturn(settled: Line[], before: readonly Line[]): void {
  const last = settled.length - 1;
  const original = before[last];
  if (original !== undefined && (original.ending === '\r\n' || original.ending === '\r'))
    settled[last] = { text: original.text, ending: '\r' };
}

/** Every text the chunks search for (anchors and old-side lines), so the index hashes only file lines that may match. */
function searchedTexts(chunks: readonly Chunk[]): string[] {
  const texts: string[] = [];
  for (const chunk of chunks) {
    for (const anchor of chunk.anchors) texts.push(anchor.text);
    for (const line of chunk.lines) if (line.kind !== 'add') texts.push(line.text);
  }
  return texts;
}

/** Orders edits by where they start in the original file; at the same place, patch order wins. */
function byPosition(a: Edit, b: Edit): number {
  return a.location.start - b.location.start || a.chunk - b.chunk;
}

/**
 * Locates every chunk of one Update against the original lines (indexed once, cursor passed from
 * chunk to chunk), then applies them all. Every failing chunk is reported, not only the first.
 */
export function applyChunks(
  lines: readonly Line[],
  chunks: readonly Chunk[],
  context: LocateSettings & { path: string; exactEndings?: boolean; finalNewline?: boolean },
): ChunksApplied {
  const exact = context.exactEndings ?? false;
  const index = indexFile(lines.map(exact ? rawText : (line) => line.text), searchedTexts(chunks));
  const edits: Edit[] = [];
  const errors: EditError[] = [];
  let cursor = 0;
  chunks.forEach((chunk, i) => {
    const result = locateChunk(index, chunk, {
      cursor,
      firstMatch: context.firstMatch,
      ...(context.similarity !== undefined && { similarity: context.similarity }),
      nearest: context.nearest.left > 0,
    });
    if (!result.ok) {
      errors.push(missError(result, { path: context.path, chunk: i, line: chunk.line }, context.nearest));
      return;
    }
    edits.push({ chunk: i, location: keepFileIndentation(result, chunk, index.lines) });
    cursor = result.cursor;
  });
  if (errors.length > 0) return { ok: false, errors };

  const ending = firstEnding(lines);
  const out: Line[] = [];
  let next = 0;
  for (const edit of edits.sort(byPosition)) {
    const { start, length, replacement } = edit.location;
    if (start < next) {
      errors.push({
        code: 'NO_MATCH',
        message: `chunk ${edit.chunk + 1} overlaps lines an earlier chunk already changes (file lines ${start + 1}-${next})`,
        path: context.path,
        chunk: edit.chunk,
        line: chunks[edit.chunk]?.line,
      });
      continue;
    }
    pushRange(out, lines, next, start);
    for (const piece of replacement) {
      if (piece.from === 'patch') out.push(exact ? lineAsWritten(piece.text) : { text: piece.text, ending });
      else {
        const kept = lines[piece.index];
        if (kept !== undefined) out.push(kept);
      }
    }
    next = start + length;
  }
  if (errors.length > 0) return { ok: false, errors };
  pushRange(out, lines, next, lines.length);

  const reports = edits
    .sort((a, b) => a.chunk - b.chunk)
    .map(({ chunk, location }) => ({
      chunk,
      line: location.start + 1,
      pass: location.pass,
      ...(location.indent !== undefined && { indent: location.indent }),
      ...(location.reindented && { reindented: true }),
    }));
  const finalNewline = context.finalNewline ?? hasFinalNewline(lines);
  const settled = settleEndings(out, exact ? '\n' : ending, finalNewline);
  if (exact && !finalNewline) keepFinalCarriageReturn(settled, out);
  return { ok: true, lines: settled, reports };
}

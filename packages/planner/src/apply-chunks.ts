import { type Chunk, type EditError, type LineModel, SplicedText } from '@patchsmith/core';
import {
  type ChunkLocation,
  indexFile,
  type LineList,
  locateChunk,
  type ReplacementLine,
} from '@patchsmith/fuzzy';
import type { DiffRegion } from './diff.js';
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
  | {
      ok: true;
      /** The new text (without BOM), joined or encoded only when asked for. */
      content: SplicedText;
      /** How many lines it has. */
      count: number;
      reports: ChunkReport[];
      /**
       * What changed, edit by edit, for a diff that looks only there; null when the text may not
       * read back as the lines it was built from (then diff it as decoded).
       */
      regions: DiffRegion[] | null;
    }
  | { ok: false; errors: EditError[] };

/** A line as a byte-exact diff shows it: a CR before its line feed (or a lone CR ending) is part of the text. */
function rawLines(lines: LineModel): LineList {
  return {
    length: lines.length,
    at: (i) =>
      i < 0 || i >= lines.length
        ? undefined
        : lines.text.slice(lines.starts[i]!, lines.starts[i + 1]).replace(/\n$/, ''),
  };
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
  lines: LineModel,
  chunks: readonly Chunk[],
  context: LocateSettings & { path: string; exactEndings?: boolean; finalNewline?: boolean },
): ChunksApplied {
  const exact = context.exactEndings ?? false;
  const index = indexFile(exact ? rawLines(lines) : lines, searchedTexts(chunks));
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
  edits.sort(byPosition);
  for (let k = 1, next = 0; k <= edits.length; k++) {
    const { start, length } = edits[k - 1]!.location;
    if (start < next) errors.push(overlapError(edits[k - 1]!, next, chunks, context.path));
    else next = start + length;
  }
  if (errors.length > 0) return { ok: false, errors };
  const written = writeEdits(lines, edits, exact, context.finalNewline ?? lines.hasFinalNewline());
  const reports = edits
    .sort((a, b) => a.chunk - b.chunk)
    .map(({ chunk, location }) => ({
      chunk,
      line: location.start + 1,
      pass: location.pass,
      ...(location.indent !== undefined && { indent: location.indent }),
      ...(location.reindented && { reindented: true }),
    }));
  return { ok: true, ...written, reports };
}

function overlapError(edit: Edit, next: number, chunks: readonly Chunk[], path: string): EditError {
  const { start } = edit.location;
  return {
    code: 'NO_MATCH',
    message: `chunk ${edit.chunk + 1} overlaps lines an earlier chunk already changes (file lines ${start + 1}-${next})`,
    path,
    chunk: edit.chunk,
    line: chunks[edit.chunk]?.line,
  };
}

/** The text of a replacement line holds a line break, so the new text may split otherwise than its lines. */
function breaksLines(text: string): boolean {
  return /[\r\n]/.test(text);
}

/**
 * The new text: the original kept in ranges between the edits (untouched lines are never split
 * or joined one by one), each edit's replacement in between. Every line is written with an ending
 * (a file line without one takes the one new lines take), then the last one's follows
 * `finalNewline`.
 */
function writeEdits(
  lines: LineModel,
  edits: readonly Edit[],
  exact: boolean,
  finalNewline: boolean,
): { content: SplicedText; count: number; regions: DiffRegion[] | null } {
  const ending = exact ? '\n' : lines.firstEnding();
  const content = new SplicedText(lines.text);
  const regions: DiffRegion[] = [];
  let plain = !exact;
  /** Characters of the ending of the last line written. */
  let lastEnding = 0;
  /** A file line with an ending, the one new lines take when it had none. */
  const fileLine = (i: number) => {
    const start = lines.starts[i]!;
    const end = lines.starts[i + 1]!;
    const own = end - lines.textEnd(i);
    content.keep(start, end);
    if (own === 0) content.add(ending);
    lastEnding = own === 0 ? ending.length : own;
  };
  const keep = (from: number, to: number) => {
    if (from >= to) return;
    content.keep(lines.starts[from]!, lines.starts[to - 1]!);
    fileLine(to - 1);
  };
  let next = 0;
  let count = 0;
  for (const { location } of edits) {
    const { start, length, replacement } = location;
    keep(next, start);
    count += start - next;
    const texts: string[] = [];
    for (const piece of replacement) {
      if (piece.from === 'patch') {
        content.add(piece.text + ending);
        lastEnding = ending.length;
        if (breaksLines(piece.text)) plain = false;
      } else fileLine(piece.index);
      texts.push(lineText(lines, piece));
    }
    regions.push({ aFrom: start, aTo: start + length, b: texts });
    count += replacement.length;
    next = start + length;
  }
  keep(next, lines.length);
  count += lines.length - next;
  // Byte-exact, a patch line's final CR is its CRLF ending's, and a CR ending stays: only an LF goes.
  if (!finalNewline && exact && content.endsWithLineFeed()) content.dropEnd(1);
  else if (!finalNewline && !exact) content.dropEnd(lastEnding);
  return { content, count, regions: plain && !content.mergesAtJoin() ? regions : null };
}

/** The text of a replacement line, as a diff compares it. */
function lineText(lines: LineModel, piece: ReplacementLine): string {
  return piece.from === 'patch' ? piece.text : lines.at(piece.index)!;
}

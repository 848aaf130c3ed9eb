import { endsWithLineBreak, textLines, withEnding } from '@patchsmith/core';
import { equalLinePairs } from './block-diff.js';
import { type FileIndex, indexFile } from './file-index.js';
import { type Candidates, findCandidates, LINE_PASSES } from './find-candidates.js';
import { reindent, uniformShift } from './indent-shift.js';
import type { LineIndex } from './line-index.js';
import { findNearestRegion } from './nearest-region.js';
import { pickFirstOrHint } from './nearest-start.js';
import { type LineKey, normalizeLine } from './normalize.js';
import { ANCHOR_WIDTH } from './substring-table.js';
import type {
  ChunkMiss,
  IndentShift,
  IndexedTextLocateResult,
  LineList,
  LinesMatch,
  ReplacementLine,
  SubstringMatch,
  SubstringSpan,
  TextEdit,
  TextLine,
  TextLines,
  TextLocateOptions,
  TextLocateResult,
} from './types.js';

const MESSAGE_LINES = 12;

/**
 * Finds a str_replace / SEARCH/REPLACE edit in a file (SPEC §2): an exact substring first (which
 * may be part of a line; skipped for whole-line blocks), written as given or with its line breaks
 * as the file's; then passes 2–5 over the search text's lines (a final line break ignored) against
 * the file's whole lines. The whole file is searched. More than one candidate is AMBIGUOUS unless
 * `all` (every non-overlapping occurrence) or `firstMatch`. `search` must not be empty.
 */
export function locateText(
  lines: readonly TextLine[],
  edit: TextEdit,
  options: TextLocateOptions = {},
): TextLocateResult {
  const ending = firstEnding(lines);
  if (!options.wholeLines) {
    const found = locateSubstring(lines, edit, ending, options);
    if (found !== null) return found;
  }
  return locateLines(
    lines.map((l) => l.text),
    edit,
    options,
  );
}

/**
 * `locateText` in a file kept as a `LineIndex`, with the same answers: an exact occurrence whose
 * text spans two or more line breaks holds a whole line, so only the lines of that text are
 * checked; whole-line blocks (passes 1–5) are looked for from their rarest line under each
 * normalisation. Other searches (a text within one line or across one break) scan the file as
 * `locateText` does.
 */
export function locateIndexed(
  index: LineIndex,
  edit: TextEdit,
  options: TextLocateOptions = {},
): IndexedTextLocateResult {
  const { lines } = index;
  const ending = firstEnding(lines);
  if (!options.wholeLines) {
    for (const variant of searchVariants(edit.search, ending)) {
      const spans =
        anchoredSpans(index, variant) ??
        (hasBreak(variant)
          ? (acrossOneBreak(index, variant) ?? scannedSpans(lines, index.joined(), variant))
          : index.substringsOf(variant));
      if (spans.length === 0) continue;
      const chosen = choose(spans, options, (s) => s.line, spanOverlaps);
      if (!Array.isArray(chosen)) return chosen;
      return {
        ok: true,
        kind: 'substring',
        pass: 'exact',
        spans: chosen,
        replacement: withEnding(edit.replace, ending),
      };
    }
  }
  return locateLines(index.texts, edit, options, index);
}

/** The search text as given, then with its line breaks as the file's first ending. */
function searchVariants(search: string, ending: string): string[] {
  const converted = withEnding(search, ending);
  return converted === search ? [search] : [search, converted];
}

/**
 * Which occurrences an edit takes: all non-overlapping ones with `all`, else the only one, the one
 * the hint makes strictly nearest, or the first with `firstMatch`; AMBIGUOUS otherwise.
 */
function choose<T>(
  found: readonly T[],
  options: TextLocateOptions,
  lineOf: (occurrence: T) => number,
  overlaps: (kept: T, next: T) => boolean,
): T[] | ChunkMiss {
  if (!options.all) {
    if (found.length === 1) return [found[0]!];
    const chosen = pickFirstOrHint(found.map(lineOf), options.hint, options.firstMatch === true);
    return chosen === null ? ambiguous(found.map((o) => lineOf(o) + 1)) : [found[chosen]!];
  }
  const kept: T[] = [];
  for (const occurrence of found) {
    const last = kept[kept.length - 1];
    if (last === undefined || !overlaps(last, occurrence)) kept.push(occurrence);
  }
  return kept;
}

/** `next` starts before `kept` ends. */
function spanOverlaps(kept: SubstringSpan, next: SubstringSpan): boolean {
  return next.line < kept.endLine || (next.line === kept.endLine && next.column < kept.endColumn);
}

/** Index of the text of `texts` that the fewest lines have (normalised by `key`). */
function rarest(index: LineIndex, texts: readonly string[], key: LineKey = 'exact'): number {
  let best = 0;
  let bestCount = Number.POSITIVE_INFINITY;
  for (let j = 0; j < texts.length && bestCount > 1; j++) {
    const count = index.countOf(texts[j]!, bestCount, key);
    if (count < bestCount) {
      best = j;
      bestCount = count;
    }
  }
  return best;
}

/** Characters of a line with its ending. */
function lengthOf(line: TextLine): number {
  return line.text.length + line.ending.length;
}

/**
 * Every occurrence of a text with two or more line breaks, or null for a text with fewer. Each
 * piece between two of its breaks is a whole line of the file (a break ends a line on both of its
 * sides, a CRLF being one break), so only the lines with the rarest such text are checked.
 */
function anchoredSpans(index: LineIndex, variant: string): SubstringSpan[] | null {
  const parts = variant.split(/(\r\n|\n|\r)/);
  if (parts.length < 5) return null;
  const lead = parts[0]!.length + parts[1]!.length;
  const breaks = (parts.length - 1) / 2;
  // Piece q (1 .. breaks - 1) stands at parts[2q] and is line first + q.
  const whole = parts.filter((_, i) => i % 2 === 0).slice(1, breaks);
  const q = rarest(index, whole) + 1;
  const { lines } = index;
  const spans: SubstringSpan[] = [];
  for (const anchor of index.positionsOf(parts[2 * q]!)) {
    const first = anchor - q;
    if (first < 0) continue;
    const column = lengthOf(lines.at(first)!) - lead;
    if (column < 0) continue;
    let local = '';
    for (let i = first; i <= first + breaks && i < lines.length; i++) {
      const line = lines.at(i)!;
      local += line.text + line.ending;
    }
    if (local.startsWith(variant, column))
      spans.push(spanFrom(lines, first, column, column + variant.length));
  }
  return spans;
}

/**
 * Every occurrence of a text with exactly one line break, or null when both its sides are too
 * short to be looked up (then the file is scanned). The side before the break ends a line's text
 * and the side after starts the next one's (a break in the text is a line's ending in the file,
 * or half of a CRLF one at the text's edge), so the occurrences of the longer side at that edge
 * of a line are the candidates, each checked.
 */
function acrossOneBreak(index: LineIndex, variant: string): SubstringSpan[] | null {
  const [before = '', , after = ''] = variant.split(/(\r\n|\n|\r)/);
  const { lines } = index;
  let candidates: number[];
  if (before.length >= ANCHOR_WIDTH && before.length >= after.length)
    candidates = index
      .substringsOf(before)
      .filter((s) => s.column + before.length === index.texts.at(s.line)!.length)
      .map((s) => s.line);
  else if (after.length >= ANCHOR_WIDTH)
    candidates = index
      .substringsOf(after)
      .filter((s) => s.column === 0 && s.line > 0)
      .map((s) => s.line - 1);
  else return null;
  const spans: SubstringSpan[] = [];
  for (const first of candidates) {
    const line = lines.at(first)!;
    const next = lines.at(first + 1);
    const local = line.text + line.ending + (next ? next.text + next.ending : '');
    // A text that starts with its LF may start on the LF of a CRLF ending.
    const end = line.text.length - before.length;
    for (const column of before === '' ? [end, end + 1] : [end]) {
      if (local.startsWith(variant, column))
        spans.push(spanFrom(lines, first, column, column + variant.length));
    }
  }
  return spans;
}

/** The span from `column` of line `first` to `end` characters past that line's start. */
function spanFrom(lines: TextLines, first: number, column: number, end: number): SubstringSpan {
  let endLine = first;
  let endColumn = end;
  while (endLine < lines.length - 1 && endColumn > lengthOf(lines.at(endLine)!)) {
    endColumn -= lengthOf(lines.at(endLine)!);
    endLine++;
  }
  return { line: first, column, endLine, endColumn };
}

/** The text holds a line break. */
function hasBreak(text: string): boolean {
  return /[\r\n]/.test(text);
}

/** Every occurrence, found in the joined text (the lines' `text`) as `locateText` finds them. */
function scannedSpans(lines: TextLines, text: string, variant: string): SubstringSpan[] {
  const starts = occurrences(text, variant);
  if (starts.length === 0) return [];
  const lineOf = lineFinder(lines);
  return starts.map((start) => {
    const line = lineOf(start);
    return spanFrom(lines, line, start - lineOf.start(line), start - lineOf.start(line) + variant.length);
  });
}

/**
 * Passes 1–5 of a whole-line block through the index, with `findCandidates`'s answer: each pass
 * seeds from the block line whose normalised text the fewest lines have and checks every seed;
 * the first pass with a candidate decides. Null when no pass finds one; undefined for an empty
 * block, or when checking would cost more than the full index (the caller then builds that).
 */
function indexedBlock(index: LineIndex, block: readonly string[]): Candidates | null | undefined {
  const lines = index.texts;
  const m = block.length;
  if (m === 0) return undefined;
  if (m > lines.length) return null;
  for (const pass of LINE_PASSES) {
    const key = pass === 'indentation' ? 'trimmed' : pass;
    const keys = block.map((line) => normalizeLine(line, key));
    const seed = rarest(index, keys, key);
    const seedPositions = index.positionsOf(keys[seed]!, key);
    if (seedPositions.length * m > 4 * lines.length + 256) return undefined;
    const starts = seedPositions
      .map((position) => position - seed)
      .filter((start) => normalizedAt(lines, keys, key, start));
    const found = pass === 'indentation' ? indentedAt(lines, block, starts) : { pass, starts };
    if (found.starts.length > 0) return found;
  }
  return null;
}

/** The file's lines from `start` on equal the block's lines normalised by `key`. */
function normalizedAt(lines: LineList, keys: readonly string[], key: LineKey, start: number): boolean {
  if (start < 0 || start + keys.length > lines.length) return false;
  for (let j = 0; j < keys.length; j++)
    if (normalizeLine(lines.at(start + j)!, key) !== keys[j]) return false;
  return true;
}

/** Pass 3 at trimmed matches: those whose indentation differs by one uniform shift. */
function indentedAt(lines: LineList, block: readonly string[], trimmed: readonly number[]): Candidates {
  const found: Candidates & { shifts: IndentShift[] } = { pass: 'indentation', starts: [], shifts: [] };
  for (const start of trimmed) {
    const shift = uniformShift(lines, block, start);
    if (shift) {
      found.starts.push(start);
      found.shifts.push(shift);
    }
  }
  return found;
}

/** The ending new lines take: the first line's (only a last line has none), LF when there is none. */
function firstEnding(lines: TextLines): string {
  return lines.at(0)?.ending || '\n';
}

/** Pass 1: the search text as given, then with its line breaks as the file's first ending. */
function locateSubstring(
  lines: readonly TextLine[],
  edit: TextEdit,
  ending: string,
  options: TextLocateOptions,
): TextLocateResult | null {
  const { search } = edit;
  const text = lines.map((l) => l.text + l.ending).join('');
  for (const variant of searchVariants(search, ending)) {
    const starts = occurrences(text, variant);
    if (starts.length === 0) continue;
    const lineOf = lineFinder(lines);
    // Overlapping ones count for AMBIGUOUS; `all` takes those that do not overlap an earlier kept one.
    const chosen = choose(starts, options, lineOf, (kept, next) => next < kept + Math.max(1, variant.length));
    if (!Array.isArray(chosen)) return chosen;
    const matches: SubstringMatch[] = chosen.map((start) => ({
      start,
      end: start + variant.length,
      line: lineOf(start),
    }));
    return {
      ok: true,
      kind: 'substring',
      pass: 'exact',
      matches,
      replacement: withEnding(edit.replace, ending),
    };
  }
  return null;
}

/** Every start of `needle` in `haystack`, overlapping ones included (they make a match ambiguous). */
function occurrences(haystack: string, needle: string): number[] {
  const starts: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) starts.push(at);
  return starts;
}

/** Maps a character offset of the joined text to its 0-based line (binary search over line starts). */
function lineFinder(lines: TextLines): ((offset: number) => number) & { start(line: number): number } {
  const starts = new Array<number>(lines.length);
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    starts[i] = at;
    at += lengthOf(lines.at(i)!);
  }
  const find = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return Object.assign(find, { start: (line: number) => starts[line]! });
}

/** Passes 1–5 over whole lines. */
function locateLines(
  lines: LineList,
  edit: TextEdit,
  options: TextLocateOptions,
  index?: LineIndex,
): Extract<TextLocateResult, { kind: 'lines' }> | ChunkMiss {
  const searchLines = textLines(edit.search);
  let file: FileIndex | undefined;
  // Told the search's lines, the index hashes only the file lines that may equal one of them.
  const fileIndex = (): FileIndex => {
    file ??= indexFile(lines, searchLines);
    return file;
  };
  // `foo` -> `` (no line break on either side) empties the line rather than removing it.
  const replaceLines =
    edit.replace === '' && !endsWithLineBreak(edit.search) ? [''] : textLines(edit.replace);
  const region = { from: 0, to: lines.length, atEnd: false };
  const indexed = index === undefined ? undefined : indexedBlock(index, searchLines);
  const found =
    indexed !== undefined
      ? indexed
      : searchLines.length === 0
        ? null
        : findCandidates(fileIndex(), searchLines, region);
  if (!found) return noMatch(fileIndex(), searchLines, options.nearest !== false);
  // Without `all`, one candidate: the only one, the one the hint makes strictly nearest, or the first.
  const chosen = options.all ? 0 : pickFirstOrHint(found.starts, options.hint, options.firstMatch === true);
  if (chosen === null) return ambiguous(found.starts.map((s) => s + 1));
  const pairs = equalLinePairs(searchLines, replaceLines);
  const matches: LinesMatch[] = [];
  let free = 0;
  found.starts.forEach((start, k) => {
    if (start < free || (!options.all && k !== chosen)) return;
    const shift = found.shifts?.[k];
    matches.push({
      start,
      length: searchLines.length,
      replacement: replacementLines(replaceLines, pairs, start, shift),
      ...(shift ? { indent: shift } : {}),
    });
    free = start + searchLines.length;
  });
  return { ok: true, kind: 'lines', pass: found.pass, matches };
}

/** The replace side's lines: those paired with an equal search line keep the file's line, the rest are written (re-indented by pass 3). */
function replacementLines(
  replaceLines: readonly string[],
  pairs: ReadonlyArray<[number, number]>,
  start: number,
  shift: IndentShift | undefined,
): ReplacementLine[] {
  const fileLineOf = new Map<number, number>();
  for (const [i, j] of pairs) fileLineOf.set(j, start + i);
  return replaceLines.map((text, j) => {
    const index = fileLineOf.get(j);
    if (index !== undefined) return { from: 'file', index };
    return { from: 'patch', text: shift ? reindent(text, shift) : text };
  });
}

function ambiguous(lines1: number[]): ChunkMiss {
  // Where: `candidates` (the report lists them once each; two on one line read "lines 6, 6" here).
  return {
    ok: false,
    code: 'AMBIGUOUS',
    message: `the text to replace occurs ${lines1.length} times; include more surrounding lines to make it unique, or replace all`,
    candidates: lines1,
  };
}

function noMatch(
  file: ReturnType<typeof indexFile>,
  searchLines: readonly string[],
  search: boolean,
): ChunkMiss {
  const region = { from: 0, to: file.lines.length, atEnd: false };
  const nearest =
    searchLines.length === 0 || !search ? undefined : findNearestRegion(file, searchLines, region);
  const shown = searchLines.slice(0, MESSAGE_LINES).map((l) => `  ${l}`);
  if (searchLines.length > MESSAGE_LINES)
    shown.push(`  … (${searchLines.length - MESSAGE_LINES} more lines)`);
  let message = `could not find the text to replace:\n${shown.join('\n')}`;
  if (nearest) {
    message += `\nnearest: lines ${nearest.startLine}-${nearest.endLine} (similarity ${nearest.similarity.toFixed(2)})`;
  }
  return { ok: false, code: 'NO_MATCH', message, ...(nearest ? { nearest } : {}) };
}

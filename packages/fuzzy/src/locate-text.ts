import { endsWithLineBreak, textLines, withEnding } from '@patchsmith/core';
import { equalLinePairs } from './block-diff.js';
import { indexFile } from './file-index.js';
import { findCandidates } from './find-candidates.js';
import { reindent } from './indent-shift.js';
import { findNearestRegion } from './nearest-region.js';
import type {
  ChunkMiss,
  IndentShift,
  LinesMatch,
  ReplacementLine,
  SubstringMatch,
  TextEdit,
  TextLine,
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
  return locateLines(lines, edit, options);
}

function firstEnding(lines: readonly TextLine[]): string {
  return lines.find((l) => l.ending !== '')?.ending ?? '\n';
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
  const variants = [search];
  const converted = withEnding(search, ending);
  if (converted !== search) variants.push(converted);
  for (const variant of variants) {
    const starts = occurrences(text, variant);
    if (starts.length === 0) continue;
    const lineOf = lineFinder(lines);
    if (starts.length > 1 && !options.all && !options.firstMatch)
      return ambiguous(starts.map((s) => lineOf(s) + 1));
    const chosen = options.all ? nonOverlapping(starts, variant.length) : [starts[0]!];
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

/** The starts that do not overlap an earlier kept one. */
function nonOverlapping(starts: readonly number[], length: number): number[] {
  const kept: number[] = [];
  let free = 0;
  for (const start of starts) {
    if (start < free) continue;
    kept.push(start);
    free = start + Math.max(1, length);
  }
  return kept;
}

/** Maps a character offset of the joined text to its 0-based line (binary search over line starts). */
function lineFinder(lines: readonly TextLine[]): (offset: number) => number {
  const starts = new Array<number>(lines.length);
  let at = 0;
  lines.forEach((l, i) => {
    starts[i] = at;
    at += l.text.length + l.ending.length;
  });
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
}

/** Passes 1–5 over whole lines. */
function locateLines(
  lines: readonly TextLine[],
  edit: TextEdit,
  options: TextLocateOptions,
): TextLocateResult {
  const file = indexFile(lines.map((l) => l.text));
  const searchLines = textLines(edit.search);
  // `foo` -> `` (no line break on either side) empties the line rather than removing it.
  const replaceLines =
    edit.replace === '' && !endsWithLineBreak(edit.search) ? [''] : textLines(edit.replace);
  const region = { from: 0, to: file.lines.length, atEnd: false };
  const found = searchLines.length === 0 ? null : findCandidates(file, searchLines, region);
  if (!found) return noMatch(file, searchLines, options.nearest !== false);
  if (found.starts.length > 1 && !options.all && !options.firstMatch)
    return ambiguous(found.starts.map((s) => s + 1));
  const pairs = equalLinePairs(searchLines, replaceLines);
  const matches: LinesMatch[] = [];
  let free = 0;
  found.starts.forEach((start, k) => {
    if (start < free || (!options.all && matches.length > 0)) return;
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
  const shown = lines1.slice(0, 20).join(', ') + (lines1.length > 20 ? `, … ${lines1.length - 20} more` : '');
  return {
    ok: false,
    code: 'AMBIGUOUS',
    message: `the text to replace occurs ${lines1.length} times (lines ${shown}); include more surrounding lines to make it unique, or replace all`,
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

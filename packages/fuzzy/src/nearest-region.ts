import type { NearestRegion } from '@patchsmith/core';
import type { FileIndex } from './file-index.js';
import type { SearchRegion } from './find-block.js';
import { normalizeLine } from './normalize.js';

/** A line or token seen more often than this seeds nothing: it says nothing about where the chunk is. */
const MAX_SEED_OCCURRENCES = 64;
/** Total votes cast before seeding stops (the work budget). */
const MAX_VOTES = 50_000;
/** Windows scored in full. */
const MAX_WINDOWS = 16;
/** Expected lines compared per window, and characters compared per line. */
const MAX_WINDOW_LINES = 200;
const MAX_LINE_CHARS = 200;
/** Line comparisons under which every window is scored (a small file needs no seeds). */
const EXHAUSTIVE_COMPARISONS = 20_000;
/** Lines of the diff shown before it is cut. */
const MAX_DIFF_LINES = 24;

const TOKEN = /[\p{L}\p{N}_]{3,}/gu;

/** Token -> sorted lines holding it, built once per file on the first miss. */
const tokenIndexes = new WeakMap<FileIndex, Map<string, number[]>>();

/**
 * The file region most like the expected lines, in bounded work: windows are seeded from lines
 * (normalised as pass 5) and tokens the expected lines share with the file, skipping the common
 * ones, then a few of the best-voted windows are scored line by line.
 */
export function findNearestRegion(
  file: FileIndex,
  expected: readonly string[],
  region: SearchRegion,
): NearestRegion | undefined {
  const best = rankWindows(file, expected, region, false)[0];
  if (!best) return undefined;
  return {
    startLine: best.start + 1,
    endLine: Math.min(best.start + expected.length, file.lines.length),
    similarity: Math.round(best.similarity * 1000) / 1000,
    diff: shortDiff(file, expected, best.start),
  };
}

/** A window of the file the size of the expected lines, and how alike they are (0..1). */
export interface ScoredWindow {
  start: number;
  similarity: number;
}

/**
 * The seeded windows, best first. With `withinRegion` only windows inside the region count (and
 * only the last one for an end-of-file region); otherwise the whole file, preferring the region on ties.
 */
export function rankWindows(
  file: FileIndex,
  expected: readonly string[],
  region: SearchRegion,
  withinRegion: boolean,
): ScoredWindow[] {
  const n = file.lines.length;
  const m = expected.length;
  if (n === 0 || m === 0) return [];
  const keys = expected.map((line) => normalizeLine(line, 'lookalike'));
  const seeded = [...seedVotes(file, keys).entries()]
    .filter(([start]) => !withinRegion || fitsRegion(start, m, region))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MAX_WINDOWS)
    .map(([start]) => start);
  seeded.push(region.atEnd ? n - m : region.from);
  // Seeds need a shared line or token; a typo in every token ('betta' for 'beta') shares none.
  if ((n - m + 1) * Math.min(m, MAX_WINDOW_LINES) <= EXHAUSTIVE_COMPARISONS) {
    for (let start = 0; start + m <= n; start++) seeded.push(start);
  }
  const starts = new Set(seeded.map((s) => Math.max(0, Math.min(s, n - 1))));
  const scored: ScoredWindow[] = [];
  for (const start of starts) {
    if (withinRegion && !fitsRegion(start, m, region)) continue;
    scored.push({ start, similarity: windowSimilarity(file, keys, start) });
  }
  return scored.sort((a, b) => compareWindows(a, b, (w) => fitsRegion(w.start, m, region)));
}

/** The window lies in the region (and ends at its end when it must). */
function fitsRegion(start: number, m: number, region: SearchRegion): boolean {
  if (start < region.from || start + m > region.to) return false;
  return !region.atEnd || start + m === region.to;
}

/** Higher similarity wins; on a tie, a window that fits the search region, then the earlier one. */
function compareWindows(a: ScoredWindow, b: ScoredWindow, fits: (w: ScoredWindow) => boolean): number {
  if (a.similarity !== b.similarity) return b.similarity - a.similarity;
  const aIn = fits(a);
  const bIn = fits(b);
  if (aIn !== bIn) return aIn ? -1 : 1;
  return a.start - b.start;
}

/** Votes for window starts: a shared line counts 1, each shared token of a line a quarter. */
function seedVotes(file: FileIndex, keys: readonly string[]): Map<number, number> {
  const votes = new Map<number, number>();
  let budget = MAX_VOTES;
  const cast = (positions: ArrayLike<number> & Iterable<number>, offset: number, weight: number): void => {
    if (positions.length > MAX_SEED_OCCURRENCES || budget <= 0) return;
    budget -= positions.length;
    for (const p of positions) votes.set(p - offset, (votes.get(p - offset) ?? 0) + weight);
  };
  const table = file.table('lookalike');
  keys.forEach((key, j) => {
    if (key === '') return;
    const id = table.ids.get(key);
    if (id !== undefined) cast(table.positions(id), j, 1);
  });
  const tokens = tokenIndex(file);
  keys.forEach((key, j) => {
    for (const token of new Set(key.match(TOKEN) ?? [])) {
      const positions = tokens.get(token);
      if (positions) cast(positions, j, 0.25);
    }
  });
  return votes;
}

function tokenIndex(file: FileIndex): Map<string, number[]> {
  let index = tokenIndexes.get(file);
  if (index) return index;
  index = new Map();
  const table = file.table('lookalike');
  for (const [text, id] of table.ids) {
    const lines = table.positions(id);
    for (const token of new Set(text.match(TOKEN) ?? [])) {
      const list = index.get(token);
      // Past the cap a token seeds nothing, so its list need not grow further.
      if (!list) index.set(token, Array.from(lines.subarray(0, MAX_SEED_OCCURRENCES + 1)));
      else if (list.length <= MAX_SEED_OCCURRENCES) {
        for (const line of lines.subarray(0, MAX_SEED_OCCURRENCES + 1 - list.length)) list.push(line);
      }
    }
  }
  tokenIndexes.set(file, index);
  return index;
}

/** Mean line similarity of the expected lines against the window at `start` (missing lines score 0). */
function windowSimilarity(file: FileIndex, keys: readonly string[], start: number): number {
  const compared = Math.min(keys.length, MAX_WINDOW_LINES);
  let sum = 0;
  for (let j = 0; j < compared; j++) {
    const actual = file.lines.at(start + j);
    if (actual !== undefined) sum += lineSimilarity(keys[j]!, normalizeLine(actual, 'lookalike'));
  }
  return sum / compared;
}

/** Dice coefficient of character bigrams, 1 for equal lines. */
export function lineSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = a.slice(0, MAX_LINE_CHARS);
  const y = b.slice(0, MAX_LINE_CHARS);
  if (x.length < 2 || y.length < 2) return x === y ? 1 : 0;
  const counts = new Map<string, number>();
  for (let i = 0; i < x.length - 1; i++) {
    const gram = x.slice(i, i + 2);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < y.length - 1; i++) {
    const gram = y.slice(i, i + 2);
    const left = counts.get(gram) ?? 0;
    if (left > 0) {
      shared++;
      counts.set(gram, left - 1);
    }
  }
  return (2 * shared) / (x.length - 1 + (y.length - 1));
}

/** `-expected` / `+actual` for differing lines, ` actual` for lines equal once normalised. */
function shortDiff(file: FileIndex, expected: readonly string[], start: number): string {
  const keys = expected.map((line) => normalizeLine(line, 'lookalike'));
  const out: string[] = [];
  for (let j = 0; j < expected.length && out.length < MAX_DIFF_LINES; j++) {
    const actual = file.lines.at(start + j);
    if (actual === undefined) out.push(`-${expected[j]}`);
    else if (normalizeLine(actual, 'lookalike') === keys[j]) out.push(` ${actual}`);
    else out.push(`-${expected[j]}`, `+${actual}`);
  }
  if (out.length >= MAX_DIFF_LINES) out.push('…');
  return out.join('\n');
}

import type { LineTable } from './file-index.js';

/** The part of the file a block must lie in: `[from, to)`, optionally pinned to end at `to`. */
export interface SearchRegion {
  from: number;
  to: number;
  /** The block must end exactly at `to` (a chunk marked `*** End of File`). */
  atEnd: boolean;
}

/**
 * Every start `s` in the region where `table.lineIds[s..s+m)` equals the block's normalised lines.
 * Linear in the region: seeds from the block's rarest line when that is cheap, else runs KMP over
 * the line ids, so no search costs file lines x block lines.
 */
export function findBlock(table: LineTable, keys: readonly string[], region: SearchRegion): number[] {
  const m = keys.length;
  if (m === 0 || region.to - region.from < m) return [];
  const pattern = toIds(table, keys);
  if (!pattern) return [];
  if (region.atEnd) {
    const start = region.to - m;
    return matchesAt(table.lineIds, pattern, start) ? [start] : [];
  }
  const seed = rarestIndex(table, pattern);
  const seedPositions = table.positions(pattern[seed]!);
  const lo = lowerBound(seedPositions, region.from + seed);
  const hi = lowerBound(seedPositions, region.to - m + seed + 1);
  const verifyCost = (hi - lo) * m;
  if (verifyCost > 4 * (region.to - region.from) + 256) {
    return kmpSearch(table.lineIds, pattern, region.from, region.to);
  }
  const starts: number[] = [];
  for (let k = lo; k < hi; k++) {
    const start = seedPositions[k]! - seed;
    if (matchesAt(table.lineIds, pattern, start)) starts.push(start);
  }
  return starts;
}

/** The block's ids, or null when some line occurs nowhere in the file. */
function toIds(table: LineTable, keys: readonly string[]): Int32Array | null {
  const pattern = new Int32Array(keys.length);
  for (let j = 0; j < keys.length; j++) {
    const id = table.ids.get(keys[j]!);
    if (id === undefined) return null;
    pattern[j] = id;
  }
  return pattern;
}

function rarestIndex(table: LineTable, pattern: Int32Array): number {
  let best = 0;
  let bestCount = Number.POSITIVE_INFINITY;
  for (let j = 0; j < pattern.length; j++) {
    const count = table.positions(pattern[j]!).length;
    if (count < bestCount) {
      best = j;
      bestCount = count;
    }
  }
  return best;
}

function matchesAt(lineIds: Int32Array, pattern: Int32Array, start: number): boolean {
  if (start < 0 || start + pattern.length > lineIds.length) return false;
  for (let j = 0; j < pattern.length; j++) {
    if (lineIds[start + j] !== pattern[j]) return false;
  }
  return true;
}

/** First index in a sorted array whose value is >= target. */
export function lowerBound(sorted: ArrayLike<number>, target: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Every (possibly overlapping) occurrence of `pattern` in `text[from, to)`. */
export function kmpSearch(text: Int32Array, pattern: Int32Array, from: number, to: number): number[] {
  const m = pattern.length;
  const failure = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && pattern[i] !== pattern[k]) k = failure[k - 1]!;
    if (pattern[i] === pattern[k]) k++;
    failure[i] = k;
  }
  const starts: number[] = [];
  for (let i = from, k = 0; i < to; i++) {
    while (k > 0 && text[i] !== pattern[k]) k = failure[k - 1]!;
    if (text[i] === pattern[k]) k++;
    if (k === m) {
      starts.push(i - m + 1);
      k = failure[k - 1]!;
    }
  }
  return starts;
}

import { diffArrays } from 'diff';

/** One step of a line diff: keep a line of both sides, remove one of the old side, add one of the new. */
export type DiffStep = '=' | '-' | '+';

/** Myers' cost is about (n + m) × edits; beyond this much work a region is shown as replaced outright. */
const MYERS_WORK = 4_000_000;
/** Nesting of anchor splits before the remaining regions go straight to the bounded Myers pass. */
const MAX_DEPTH = 32;

function repeat(out: DiffStep[], step: DiffStep, count: number): void {
  for (let i = 0; i < count; i++) out.push(step);
}

/** Lines as integer ids (equal text, equal id), with scratch counters reused by every region. */
interface Sides {
  a: Int32Array;
  b: Int32Array;
  countA: Int32Array;
  countB: Int32Array;
  /** Id -> new-side position of its (last seen) occurrence. */
  whereB: Int32Array;
}

/**
 * Patience anchors of a region: lines that occur exactly once on each side, kept when their order
 * agrees on both sides (the longest increasing run of their new-side positions).
 */
function uniqueAnchors(
  sides: Sides,
  a0: number,
  a1: number,
  b0: number,
  b1: number,
): Array<[number, number]> {
  const { a, b, countA, countB, whereB } = sides;
  for (let i = a0; i < a1; i++) {
    const id = a[i] as number;
    countA[id] = (countA[id] as number) + 1;
  }
  for (let j = b0; j < b1; j++) {
    const id = b[j] as number;
    countB[id] = (countB[id] as number) + 1;
    whereB[id] = j;
  }
  const pairs: Array<[number, number]> = [];
  for (let i = a0; i < a1; i++) {
    const id = a[i] as number;
    if (countA[id] === 1 && countB[id] === 1) pairs.push([i, whereB[id] as number]);
  }
  for (let i = a0; i < a1; i++) countA[a[i] as number] = 0;
  for (let j = b0; j < b1; j++) countB[b[j] as number] = 0;
  // Longest increasing subsequence of new-side positions (patience sorting).
  const tails: number[] = [];
  const previous = new Int32Array(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    const j = (pairs[k] as [number, number])[1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((pairs[tails[mid] as number] as [number, number])[1] < j) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[k] = tails[lo - 1] as number;
    tails[lo] = k;
  }
  const anchors: Array<[number, number]> = [];
  for (let k = tails[tails.length - 1] ?? -1; k >= 0; k = previous[k] as number)
    anchors.push(pairs[k] as [number, number]);
  return anchors.reverse();
}

/** A region without anchors: Myers within a work bound, else every old line removed and every new one added. */
function boundedMyers(sides: Sides, a0: number, a1: number, b0: number, b1: number, out: DiffStep[]) {
  const maxEditLength = Math.floor(MYERS_WORK / (a1 - a0 + b1 - b0));
  const changes = diffArrays(Array.from(sides.a.subarray(a0, a1)), Array.from(sides.b.subarray(b0, b1)), {
    maxEditLength,
  });
  if (changes === undefined) {
    repeat(out, '-', a1 - a0);
    repeat(out, '+', b1 - b0);
    return;
  }
  for (const change of changes) repeat(out, change.added ? '+' : change.removed ? '-' : '=', change.count);
}

function diffRange(
  sides: Sides,
  a0: number,
  a1: number,
  b0: number,
  b1: number,
  out: DiffStep[],
  depth: number,
): void {
  const { a, b } = sides;
  while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) {
    out.push('=');
    a0++;
    b0++;
  }
  let suffix = 0;
  while (a1 > a0 && b1 > b0 && a[a1 - 1] === b[b1 - 1]) {
    a1--;
    b1--;
    suffix++;
  }
  if (a0 === a1 || b0 === b1) {
    repeat(out, '-', a1 - a0);
    repeat(out, '+', b1 - b0);
  } else {
    const anchors = depth < MAX_DEPTH ? uniqueAnchors(sides, a0, a1, b0, b1) : [];
    if (anchors.length === 0) boundedMyers(sides, a0, a1, b0, b1, out);
    else {
      let i = a0;
      let j = b0;
      for (const [ai, bj] of anchors) {
        diffRange(sides, i, ai, j, bj, out, depth + 1);
        out.push('=');
        i = ai + 1;
        j = bj + 1;
      }
      diffRange(sides, i, a1, j, b1, out, depth + 1);
    }
  }
  repeat(out, '=', suffix);
}

/** How far ahead the scattered-edit pass looks for the two sides to agree again. */
const RESYNC_WINDOW = 256;

/** Lines that must agree in a row before the sides count as back in step. */
const RESYNC_RUN = 3;
/** Below this many lines the general diff is cheap, and its results are minimal. */
const SCATTERED_MIN_LINES = 2_000;

/** From line i of a and j of b the sides agree for a few lines in a row, or to both ends. */
function agreesFrom(a: readonly string[], b: readonly string[], i: number, j: number): boolean {
  let run = 0;
  while (run < RESYNC_RUN && i + run < a.length && j + run < b.length && a[i + run] === b[j + run]) run++;
  return run === RESYNC_RUN || (run > 0 && i + run === a.length && j + run === b.length);
}

/** Skips (lines of both sides together) the direct search of `nearSync` tries before the map. */
export const NEAR_SKIPS = 12;

/**
 * `resync` for the usual case, a sync point a few lines away, without building its map: tries
 * every split of 0, 1, 2, … skipped lines, fewest old-side lines first, as `resync`'s choice
 * (fewest lines in all, then fewest old lines). A line only counts at its first occurrence in the
 * new side's window, as in `resync`. Undefined when no sync point is that near.
 */
export function nearSync(
  a: readonly string[],
  b: readonly string[],
  i: number,
  j: number,
): [number, number] | undefined {
  for (let skipped = 0; skipped <= NEAR_SKIPS; skipped++) {
    for (let x = 0; x <= skipped; x++) {
      const y = skipped - x;
      if (i + x >= a.length || j + y >= b.length || x >= RESYNC_WINDOW || y >= RESYNC_WINDOW) continue;
      const line = a[i + x];
      if (line !== b[j + y] || !isFirstIn(b, j, y, line as string)) continue;
      if (agreesFrom(a, b, i + x, j + y)) return [x, y];
    }
  }
  return undefined;
}

/** `line` does not occur in `b[j, j + y)`. */
function isFirstIn(b: readonly string[], j: number, y: number, line: string): boolean {
  for (let k = 0; k < y; k++) if (b[j + k] === line) return false;
  return true;
}

/** The nearest point (fewest lines skipped on both sides) where the sides agree again, within the window. */
function resync(a: readonly string[], b: readonly string[], i: number, j: number): [number, number] | null {
  return nearSync(a, b, i, j) ?? resyncByMap(a, b, i, j);
}

/** `resync` for any distance: maps each new-side line of the window to its first position. */
export function resyncByMap(
  a: readonly string[],
  b: readonly string[],
  i: number,
  j: number,
): [number, number] | null {
  const firstInB = new Map<string, number>();
  for (let y = 0; y < RESYNC_WINDOW && j + y < b.length; y++) {
    const line = b[j + y] as string;
    if (!firstInB.has(line)) firstInB.set(line, y);
  }
  let best: [number, number] | null = null;
  for (let x = 0; x < RESYNC_WINDOW && i + x < a.length; x++) {
    if (best !== null && x >= best[0] + best[1]) break;
    const y = firstInB.get(a[i + x] as string);
    if (y === undefined || !agreesFrom(a, b, i + x, j + y)) continue;
    if (best === null || x + y < best[0] + best[1]) best = [x, y];
  }
  return best;
}

/**
 * The common case of a patch: a few small edits scattered through a large file. One pass compares
 * the lines directly (no hashing of the whole file) and diffs only the small windows where the
 * sides differ; null when the sides do not agree again within the window (a larger rewrite).
 */
function diffScattered(a: readonly string[], b: readonly string[]): DiffStep[] | null {
  if (a.length + b.length < SCATTERED_MIN_LINES) return null;
  const out: DiffStep[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push('=');
      i++;
      j++;
      continue;
    }
    const sync = resync(a, b, i, j);
    if (sync === null) {
      // The rest may still end alike: close enough to the end, the general diff takes it.
      if (a.length - i <= RESYNC_WINDOW && b.length - j <= RESYNC_WINDOW) break;
      return null;
    }
    for (const step of diffLinesGeneral(a.slice(i, i + sync[0]), b.slice(j, j + sync[1]))) out.push(step);
    i += sync[0];
    j += sync[1];
  }
  for (const step of diffLinesGeneral(a.slice(i), b.slice(j))) out.push(step);
  return out;
}

/**
 * A line diff in near-linear time: scattered small edits (what patches make) in one direct pass;
 * anything larger through common ends, patience anchors, then Myers only on small anchorless
 * regions within a work bound: never the quadratic blow-up of plain Myers on a file rewritten
 * wholesale. Deterministic.
 */
export function diffLines(a: readonly string[], b: readonly string[]): DiffStep[] {
  return diffScattered(a, b) ?? diffLinesGeneral(a, b);
}

/**
 * Common ends are matched on the strings before any line is interned: `diffRange` would match
 * them first anyway, and a one-sided change (a new file, a deletion, an append) then interns nothing.
 */
function diffLinesGeneral(a: readonly string[], b: readonly string[]): DiffStep[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  const out: DiffStep[] = [];
  repeat(out, '=', prefix);
  const aMiddle = prefix === 0 && suffix === 0 ? a : a.slice(prefix, a.length - suffix);
  const bMiddle = prefix === 0 && suffix === 0 ? b : b.slice(prefix, b.length - suffix);
  if (aMiddle.length === 0 || bMiddle.length === 0) {
    repeat(out, '-', aMiddle.length);
    repeat(out, '+', bMiddle.length);
  } else diffInterned(aMiddle, bMiddle, out);
  repeat(out, '=', suffix);
  return out;
}

function diffInterned(a: readonly string[], b: readonly string[], out: DiffStep[]): void {
  const ids = new Map<string, number>();
  const idOf = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  const sideA = Int32Array.from(a, idOf);
  const sideB = Int32Array.from(b, idOf);
  const sides: Sides = {
    a: sideA,
    b: sideB,
    countA: new Int32Array(ids.size),
    countB: new Int32Array(ids.size),
    whereB: new Int32Array(ids.size),
  };
  diffRange(sides, 0, a.length, 0, b.length, out, 0);
}

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

/**
 * A line diff in near-linear time for the edits a patch makes (common ends trimmed, patience
 * anchors, then Myers only on small anchorless regions, within a work bound): never the
 * quadratic blow-up of plain Myers on a file rewritten wholesale. Deterministic.
 */
export function diffLines(a: readonly string[], b: readonly string[]): DiffStep[] {
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
  const out: DiffStep[] = [];
  diffRange(sides, 0, a.length, 0, b.length, out, 0);
  return out;
}

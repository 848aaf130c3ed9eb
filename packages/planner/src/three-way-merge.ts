import { decodeText } from '@patchsmith/core';
import { type DiffStep, diffLines } from '@patchsmith/fuzzy';

/** A run of base lines `[baseStart, baseEnd)` that one side replaced by its lines `[start, end)`. */
interface Hunk {
  side: 'ours' | 'theirs';
  baseStart: number;
  baseEnd: number;
  start: number;
  end: number;
}

/** Where one of our changes landed: line `read` of the version read is line `now` of the merged file (1-based). */
export interface MovedChange {
  read: number;
  now: number;
  /** Lines our change left there. */
  lines: number;
}

/** Base lines both sides changed differently: `[readStart, readEnd]` (1-based) of the version read. */
export interface MergeConflict {
  readStart: number;
  readEnd: number;
  /** 1-based line of the file now where the region starts. */
  line: number;
  base: string[];
  ours: string[];
  theirs: string[];
}

export type MergeResult =
  | { ok: true; bytes: Uint8Array; moved: MovedChange[] }
  | { ok: false; reason: 'binary' }
  | { ok: false; reason: 'conflict'; conflicts: MergeConflict[] };

const encoder = new TextEncoder();

/** The lines of a text file, each with its own ending (joined, they give the bytes back); null for binary. */
function linesWithEndings(bytes: Uint8Array): string[] | null {
  const content = decodeText(bytes);
  if (content === null) return null;
  const lines = Array.from({ length: content.lines.length }, (_, i) => content.lines.raw(i, i + 1));
  // A byte-order mark merges as part of the first line.
  if (content.bom) lines[0] = `\uFEFF${lines[0] ?? ''}`;
  return lines;
}

/** The maximal runs of changed lines of a line diff from the base to one side. */
function hunksOf(side: Hunk['side'], steps: readonly DiffStep[]): Hunk[] {
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  let open: Hunk | null = null;
  for (const step of steps) {
    if (step === '=') {
      open = null;
      i++;
      j++;
      continue;
    }
    if (open === null) {
      open = { side, baseStart: i, baseEnd: i, start: j, end: j };
      hunks.push(open);
    }
    if (step === '-') open.baseEnd = ++i;
    else open.end = ++j;
  }
  return hunks;
}

/** Two changes of the base that meet or touch: their order in the result would be a guess. */
function touches(region: { baseEnd: number }, next: Hunk): boolean {
  return next.baseStart <= region.baseEnd;
}

/** One side's lines for the base region `[from, to)`, its hunks in the region given (none: the base's own lines). */
function sideLines(
  lines: readonly string[],
  base: readonly string[],
  hunks: readonly Hunk[],
  from: number,
  to: number,
): string[] {
  const first = hunks[0];
  const last = hunks[hunks.length - 1];
  if (first === undefined || last === undefined) return base.slice(from, to);
  return lines.slice(first.start - (first.baseStart - from), last.end + (to - last.baseEnd));
}

/** Same lines in the same order. */
function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, k) => line === b[k]);
}

/** A line for a conflict report: its ending dropped. */
const shown = (line: string) => line.replace(/\r?\n$/, '');

/**
 * diff3 of a file's three versions, line by line: `base` what the model read, `ours` the edit's
 * result on it, `theirs` the file now. Each side's changes are found with the one line diff
 * (linear for scattered edits, where a classic LCS diff3 is quadratic); changes that meet or
 * touch on the base are a conflict unless both sides made the same one. Bytes are kept as they
 * are: line endings, a byte-order mark and a missing final newline included.
 */
export function threeWayMerge(base: Uint8Array, ours: Uint8Array, theirs: Uint8Array): MergeResult {
  const o = linesWithEndings(base);
  const a = linesWithEndings(ours);
  const b = linesWithEndings(theirs);
  if (o === null || a === null || b === null) return { ok: false, reason: 'binary' };
  const hunks = [...hunksOf('ours', diffLines(o, a)), ...hunksOf('theirs', diffLines(o, b))].sort(
    (x, y) => x.baseStart - y.baseStart || x.baseEnd - y.baseEnd,
  );
  const out: string[] = [];
  const moved: MovedChange[] = [];
  const conflicts: MergeConflict[] = [];
  let copied = 0;
  for (let k = 0; k < hunks.length; ) {
    const region = { baseStart: (hunks[k] as Hunk).baseStart, baseEnd: (hunks[k] as Hunk).baseEnd };
    const inRegion: Hunk[] = [];
    while (k < hunks.length && (inRegion.length === 0 || touches(region, hunks[k] as Hunk))) {
      const hunk = hunks[k++] as Hunk;
      inRegion.push(hunk);
      region.baseEnd = Math.max(region.baseEnd, hunk.baseEnd);
    }
    for (let n = copied; n < region.baseStart; n++) out.push(o[n] as string);
    const oursHunks = inRegion.filter((h) => h.side === 'ours');
    const theirsHunks = inRegion.filter((h) => h.side === 'theirs');
    const mine = sideLines(a, o, oursHunks, region.baseStart, region.baseEnd);
    const other = sideLines(b, o, theirsHunks, region.baseStart, region.baseEnd);
    if (oursHunks.length > 0 && theirsHunks.length > 0 && !sameLines(mine, other)) {
      conflicts.push({
        readStart: region.baseStart + 1,
        readEnd: region.baseEnd,
        line: out.length + 1,
        base: o.slice(region.baseStart, region.baseEnd).map(shown),
        ours: mine.map(shown),
        theirs: other.map(shown),
      });
      for (const line of other) out.push(line);
    } else if (theirsHunks.length > 0) for (const line of other) out.push(line);
    else {
      moved.push({ read: region.baseStart + 1, now: out.length + 1, lines: mine.length });
      for (const line of mine) out.push(line);
    }
    copied = region.baseEnd;
  }
  for (let n = copied; n < o.length; n++) out.push(o[n] as string);
  if (conflicts.length > 0) return { ok: false, reason: 'conflict', conflicts };
  return { ok: true, bytes: encoder.encode(out.join('')), moved };
}

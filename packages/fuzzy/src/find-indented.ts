import type { FileIndex } from './file-index.js';
import { findBlock, kmpSearch, type SearchRegion } from './find-block.js';
import { isBlank, pairShift, uniformShift } from './indent-shift.js';
import { leadingWhitespace, normalizeLine } from './normalize.js';
import type { IndentShift, LineList } from './types.js';

/** Pass 3's starts in the region, each with its shift. */
export interface IndentedMatches {
  starts: number[];
  /** Parallel to `starts`. */
  shifts: IndentShift[];
}

/**
 * Pass 3 (SPEC §2): blocks equal once trimmed whose indentation differs by one uniform prefix.
 * Checking each trimmed match line by line costs matches × block lines, which is quadratic on a
 * file of many identical lines (every `}` of a file for a block of `}` lines); past the same budget
 * `findBlock` uses, all matches are checked at once by one linear scan of the region.
 */
export function findIndented(
  file: FileIndex,
  block: readonly string[],
  region: SearchRegion,
): IndentedMatches {
  const keys = block.map((line) => normalizeLine(line, 'trimmed'));
  const starts = findBlock(file.table('trimmed', keys), keys, region);
  const cheap = starts.length * block.length <= 4 * (region.to - region.from) + 256;
  return cheap ? shiftEach(file.lines, block, starts) : shiftAll(file.lines, block, starts, region);
}

/** Every start whose lines have one uniform shift, checked one by one. */
function shiftEach(lines: LineList, block: readonly string[], starts: number[]): IndentedMatches {
  const kept: IndentedMatches = { starts: [], shifts: [] };
  for (const start of starts) {
    const shift = uniformShift(lines, block, start);
    if (shift) {
      kept.starts.push(start);
      kept.shifts.push(shift);
    }
  }
  return kept;
}

/** Step code of a blank line: blank lines are exempt, and trimmed matches have them at the same places. */
const BLANK = -1;
/** Step code of a file line whose step the block never takes, or that has no non-blank line before it. */
const NO_STEP = -2;

/**
 * The same answer as `shiftEach`, linear in the region. A shift is uniform exactly when every
 * non-blank line steps from the non-blank line before it as the block's line does: the same
 * indentation left once their common leading part is removed (a uniform prefix adds to or takes
 * from that common part only). So the block's steps after its first non-blank line are searched
 * for once in the region's steps, and the first non-blank pair of each match gives its shift.
 */
export function shiftAll(
  lines: LineList,
  block: readonly string[],
  starts: number[],
  region: SearchRegion,
): IndentedMatches {
  const kept: IndentedMatches = { starts: [], shifts: [] };
  const first = block.findIndex((line) => !isBlank(line));
  if (first < 0) return kept;
  const stepIds = new Map<string, number>();
  const pattern = stepCodes(block.slice(first), (key) => {
    let id = stepIds.get(key);
    if (id === undefined) {
      id = stepIds.size;
      stepIds.set(key, id);
    }
    return id;
  }).subarray(1);
  const steps = stepCodes(linesBetween(lines, region.from, region.to), (key) => stepIds.get(key) ?? NO_STEP);
  // `stepsMatch[i]`: the block's steps match the region's from region line i on.
  const stepsMatch = new Uint8Array(steps.length + 1);
  if (pattern.length === 0) stepsMatch.fill(1);
  else for (const at of kmpSearch(steps, pattern, 0, steps.length)) stepsMatch[at] = 1;
  for (const start of starts) {
    if (stepsMatch[start + first + 1 - region.from] !== 1) continue;
    const shift = pairShift(leadingWhitespace(lines.at(start + first)!), leadingWhitespace(block[first]!));
    if (shift && shift.prefix !== '') {
      kept.starts.push(start);
      kept.shifts.push(shift);
    }
  }
  return kept;
}

/** Lines `[from, to)` as an array. */
function linesBetween(lines: LineList, from: number, to: number): string[] {
  const out = new Array<string>(Math.max(0, to - from));
  for (let i = from; i < to; i++) out[i - from] = lines.at(i)!;
  return out;
}

/** Each line's step from the non-blank line before it, as an id (the first non-blank line has none). */
function stepCodes(lines: readonly string[], idOf: (step: string) => number): Int32Array {
  const codes = new Int32Array(lines.length);
  let previous: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (isBlank(line)) {
      codes[i] = BLANK;
      continue;
    }
    const indent = leadingWhitespace(line);
    codes[i] = previous === null ? NO_STEP : idOf(step(previous, indent));
    previous = indent;
  }
  return codes;
}

/** What is left of two indentations once their common leading part is removed. */
function step(from: string, to: string): string {
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common++;
  // NUL is not whitespace, so it cannot occur in an indentation.
  return `${from.slice(common)}\0${to.slice(common)}`;
}

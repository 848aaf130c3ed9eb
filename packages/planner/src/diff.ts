import { decodeText, type Line, type LineModel, type TextContent } from '@patchsmith/core';
import { type DiffStep, diffLines } from '@patchsmith/fuzzy';
import { FILE_HEADERS_ONLY, formatPatch, type StructuredPatchHunk } from 'diff';
import { type LineSource, linesBetween } from './lines.js';

export interface DescribedChange {
  diff: string;
  additions: number;
  deletions: number;
}

const DEV_NULL = '/dev/null';
/** Unchanged lines a hunk shows around a change. */
const CONTEXT = 3;
const NO_NEWLINE = '\\ No newline at end of file';

/** Marks the one line that can lack an ending; line texts never hold a `\n`, so it cannot clash. */
const UNTERMINATED = '\n';

/**
 * What the diff compares: each line's text, the unterminated last line marked. Every ending
 * reads as LF, so a reviewer sees content rather than `\r`s, while a gained or lost final newline
 * still counts as a change. (Only that one line is concatenated: building a new string per line
 * would make hashing them for the diff several times slower.)
 */
function tokens(lines: readonly Line[]): string[] {
  return lines.map((line) => (line.ending === '' ? line.text + UNTERMINATED : line.text));
}

/** `tokens` of a whole file's lines. */
function modelTokens(lines: LineModel): string[] {
  const out = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) out[i] = lines.at(i)!;
  if (!lines.hasFinalNewline()) out[lines.length - 1] += UNTERMINATED;
  return out;
}

/** A step that changes something. */
function isChange(step: DiffStep): boolean {
  return step !== '=';
}

/** A side's tokens by position (only those the hunks show are asked for). */
type Tokens = (index: number) => string;

/**
 * A line diff's steps and each side's position before each step (one more, after the last). A
 * run of unchanged lines longer than two hunks' context may stand as its ends only: the position
 * jumps over the rest, which no hunk shows.
 */
interface Steps {
  steps: DiffStep[];
  aAt: number[];
  bAt: number[];
}

/** The steps with every position counted. */
function counted(steps: DiffStep[]): Steps {
  const aAt = new Array<number>(steps.length + 1);
  const bAt = new Array<number>(steps.length + 1);
  aAt[0] = 0;
  bAt[0] = 0;
  for (let k = 0; k < steps.length; k++) {
    aAt[k + 1] = aAt[k]! + (steps[k] === '+' ? 0 : 1);
    bAt[k + 1] = bAt[k]! + (steps[k] === '-' ? 0 : 1);
  }
  return { steps, aAt, bAt };
}

/** Groups the steps into unified-diff hunks with three lines of context, as `diff -u` does. */
function hunks(a: Tokens, b: Tokens, { steps, aAt, bAt }: Steps, offset: number): StructuredPatchHunk[] {
  const ranges: Array<[number, number]> = [];
  for (let k = 0; k < steps.length; k++) {
    if (!isChange(steps[k] as DiffStep)) continue;
    const last = ranges[ranges.length - 1];
    if (last !== undefined && k - last[1] <= 2 * CONTEXT) last[1] = k + 1;
    else ranges.push([k, k + 1]);
  }
  return ranges.map(([first, end]) => {
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(steps.length, end + CONTEXT);
    const lines: string[] = [];
    for (let k = from; k < to; k++) {
      const step = steps[k] as DiffStep;
      const token = step === '+' ? b(bAt[k] ?? 0) : a(aAt[k] ?? 0);
      const unterminated = token.endsWith(UNTERMINATED);
      lines.push((step === '=' ? ' ' : step) + (unterminated ? token.slice(0, -1) : token));
      if (unterminated) lines.push(NO_NEWLINE);
    }
    return {
      oldStart: offset + (aAt[from] ?? 0) + 1,
      oldLines: (aAt[to] ?? 0) - (aAt[from] ?? 0),
      newStart: offset + (bAt[from] ?? 0) + 1,
      newLines: (bAt[to] ?? 0) - (bAt[from] ?? 0),
      lines,
    };
  });
}

/** How a side's bytes are read: `decodeText`, or a planner's cached decoding of the same bytes. */
export type Decode = (bytes: Uint8Array) => TextContent | null;

/** The lines a side contributes, or null when it is binary. */
function sideTokens(bytes: Uint8Array | null, decode: Decode): string[] | null {
  if (bytes === null) return [];
  const text = decode(bytes);
  return text === null ? null : modelTokens(text.lines);
}

/**
 * A unified diff from `before` to `after` (null = absent, shown as `/dev/null`), headed
 * `--- oldName` / `+++ newName`, with its added and removed line counts. Binary content on either
 * side yields git's `Binary files … differ` line instead of hunks, and no counts.
 */
export function describeChange(
  oldName: string,
  newName: string,
  before: Uint8Array | null,
  after: Uint8Array | null,
  decode: Decode = decodeText,
): DescribedChange {
  const from = before === null ? DEV_NULL : oldName;
  const to = after === null ? DEV_NULL : newName;
  const a = sideTokens(before, decode);
  const b = sideTokens(after, decode);
  if (a === null || b === null) {
    const same = before !== null && after !== null && Buffer.from(before).equals(Buffer.from(after));
    const header = `--- ${from}\n+++ ${to}\n`;
    return {
      diff: same ? header : `${header}Binary files ${from} and ${to} differ\n`,
      additions: 0,
      deletions: 0,
    };
  }
  return describeTokens(from, to, a, b, 0);
}

/** A change to a file's lines: from line `at`, the lines `before` became the `after` lines there now. */
export interface LinesChange {
  at: number;
  before: readonly Line[];
  after: number;
}

/**
 * `describeChange` of a file whose lines changed only as `change` says, `lines` being the file
 * now: the change's window is diffed with unchanged lines around it, as many as make the diff of
 * the window the whole file's (common ends are trimmed alike once the trimming stops inside), and
 * give each hunk its context. The cost is the window's, not the file's.
 */
export function describeWindow(path: string, lines: LineSource, change: LinesChange): DescribedChange {
  const end = change.at + change.after;
  for (let extra = CONTEXT; ; extra *= 2) {
    const from = Math.max(0, change.at - extra);
    const above = linesBetween(lines, from, change.at);
    const below = linesBetween(lines, end, end + extra);
    const a = tokens([...above, ...change.before, ...below]);
    const b = tokens([...above, ...linesBetween(lines, change.at, end), ...below]);
    const steps = diffLines(a, b);
    const first = steps.findIndex(isChange);
    const last = steps.findLastIndex(isChange);
    const roomAbove = from === 0 || first === -1 || first >= CONTEXT;
    const roomBelow = end + extra >= lines.length || first === -1 || steps.length - 1 - last >= CONTEXT;
    if (roomAbove && roomBelow) return describeTokens(path, path, a, b, from, steps);
  }
}

function describeTokens(
  from: string,
  to: string,
  a: readonly string[],
  b: readonly string[],
  offset: number,
  steps: DiffStep[] = diffLines(a, b),
): DescribedChange {
  return describeSteps(
    from,
    to,
    (i) => a[i] ?? '',
    (j) => b[j] ?? '',
    counted(steps),
    offset,
  );
}

function describeSteps(
  from: string,
  to: string,
  a: Tokens,
  b: Tokens,
  steps: Steps,
  offset: number,
): DescribedChange {
  let additions = 0;
  let deletions = 0;
  for (const step of steps.steps) {
    if (step === '+') additions++;
    else if (step === '-') deletions++;
  }
  const patch = {
    oldFileName: from,
    newFileName: to,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: hunks(a, b, steps, offset),
  };
  return { diff: formatPatch(patch, FILE_HEADERS_ONLY), additions, deletions };
}

/**
 * What one edit did to a file: the original lines `[aFrom, aTo)` became the lines whose texts are
 * `b` (in edit order, not overlapping); the lines between edits are the same on both sides.
 */
export interface DiffRegion {
  aFrom: number;
  aTo: number;
  b: readonly string[];
}

/**
 * `describeChange` of a file changed only in the regions given, which must be exactly what
 * decoding the new bytes would show (`finalNewline`: whether the new text ends with a line
 * break): each region's lines are diffed on their own and the lines between are equal, so the
 * cost is the regions', not the file's. A final newline gained or lost shows on the last line.
 */
export function describeRegions(
  path: string,
  destination: string,
  before: LineModel,
  edited: readonly DiffRegion[],
  finalNewline: boolean,
): DescribedChange {
  const aLength = before.length;
  let bLength = aLength;
  for (const region of edited) bLength += region.b.length - (region.aTo - region.aFrom);
  const aUnterminated = aLength > 0 && !before.hasFinalNewline();
  const bUnterminated = bLength > 0 && !finalNewline;
  const regions = aUnterminated || bUnterminated ? withLastLines(before, edited) : edited;
  const a: Tokens = (i) =>
    aUnterminated && i === aLength - 1 ? before.at(i)! + UNTERMINATED : before.at(i)!;
  const steps: Steps = { steps: [], aAt: [], bAt: [] };
  /** Each region's first new-side line and its tokens, for the added lines the hunks show. */
  const written: Array<{ at: number; tokens: string[] }> = [];
  let aAt = 0;
  let bAt = 0;
  for (const region of regions) {
    unchanged(steps, aAt, bAt, region.aFrom - aAt);
    bAt += region.aFrom - aAt;
    const old: string[] = [];
    for (let i = region.aFrom; i < region.aTo; i++) old.push(a(i));
    const tokens = region.b.map((text, k) =>
      bUnterminated && bAt + k === bLength - 1 ? text + UNTERMINATED : text,
    );
    let i = region.aFrom;
    let j = bAt;
    for (const step of diffLines(old, tokens)) {
      steps.steps.push(step);
      steps.aAt.push(i);
      steps.bAt.push(j);
      if (step !== '+') i++;
      if (step !== '-') j++;
    }
    written.push({ at: bAt, tokens });
    aAt = region.aTo;
    bAt += tokens.length;
  }
  unchanged(steps, aAt, bAt, aLength - aAt);
  steps.aAt.push(aLength);
  steps.bAt.push(bLength);
  const b: Tokens = (j) => {
    const region = written[lastAtOrBefore(written, j)]!;
    return region.tokens[j - region.at]!;
  };
  return describeSteps(path, destination, a, b, steps, 0);
}

/**
 * Appends `count` unchanged lines from `aAt`/`bAt`: all of them when a hunk may show them, else
 * the context at each end and one step that jumps over the rest.
 */
function unchanged(steps: Steps, aAt: number, bAt: number, count: number): void {
  const jump = count > 2 * CONTEXT + 1 ? count - 2 * CONTEXT : 1;
  for (let k = 0; k < count; k += k === CONTEXT && jump > 1 ? jump : 1) {
    steps.steps.push('=');
    steps.aAt.push(aAt + k);
    steps.bAt.push(bAt + k);
  }
}

/**
 * The regions with the last line of each side inside one: a line that lost or gained its line
 * break changed, though no edit may have touched it. The regions at the end, and the unchanged
 * lines between them, become one region from far enough back.
 */
function withLastLines(before: LineModel, edited: readonly DiffRegion[]): DiffRegion[] {
  const regions = [...edited];
  const pieces: Array<readonly string[]> = [];
  let from = before.length;
  let written = 0;
  const lacksLast = () => from > before.length - 1 || written === 0;
  while (lacksLast() && (from > 0 || regions.length > 0)) {
    const region = regions.at(-1);
    if (region !== undefined && region.aTo === from) {
      regions.pop();
      pieces.push(region.b);
      written += region.b.length;
      from = region.aFrom;
    } else if (from > 0) {
      from--;
      pieces.push([before.at(from)!]);
      written++;
    } else break;
  }
  regions.push({ aFrom: from, aTo: before.length, b: pieces.reverse().flat() });
  return regions;
}

/** Index of the last region that starts at or before `j` (binary search). */
function lastAtOrBefore(regions: ReadonlyArray<{ at: number }>, j: number): number {
  let lo = 0;
  let hi = regions.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (regions[mid]!.at <= j) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

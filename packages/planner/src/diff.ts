import { FILE_HEADERS_ONLY, formatPatch, type StructuredPatchHunk } from 'diff';
import { type DiffStep, diffLines } from '@patchsmith/fuzzy';
import { decodeText, type Line, type TextContent } from './lines.js';

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

/** A step that changes something. */
function isChange(step: DiffStep): boolean {
  return step !== '=';
}

/** Groups the steps into unified-diff hunks with three lines of context, as `diff -u` does. */
function hunks(
  a: readonly string[],
  b: readonly string[],
  steps: readonly DiffStep[],
  offset: number,
): StructuredPatchHunk[] {
  // Positions on each side before each step.
  const aAt = new Int32Array(steps.length + 1);
  const bAt = new Int32Array(steps.length + 1);
  steps.forEach((step, k) => {
    aAt[k + 1] = (aAt[k] ?? 0) + (step === '+' ? 0 : 1);
    bAt[k + 1] = (bAt[k] ?? 0) + (step === '-' ? 0 : 1);
  });
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
      const token = (step === '+' ? b[bAt[k] ?? 0] : a[aAt[k] ?? 0]) ?? '';
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
  return text === null ? null : tokens(text.lines);
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
export function describeWindow(path: string, lines: readonly Line[], change: LinesChange): DescribedChange {
  const end = change.at + change.after;
  for (let extra = CONTEXT; ; extra *= 2) {
    const from = Math.max(0, change.at - extra);
    const above = lines.slice(from, change.at);
    const below = lines.slice(end, end + extra);
    const a = tokens([...above, ...change.before, ...below]);
    const b = tokens([...above, ...lines.slice(change.at, end), ...below]);
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
  steps: readonly DiffStep[] = diffLines(a, b),
): DescribedChange {
  let additions = 0;
  let deletions = 0;
  for (const step of steps) {
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

/**
 * What a SEARCH/REPLACE block's lines mean once the grammar has split them: the line-number
 * prefixes Roo Code's `read_file` shows (`12 | text`), its escaped markers (`\=======`), a
 * blank-only SEARCH (Aider: "create or append"), and the closing fence of a block whose final
 * marker never came (Cline's stream).
 */

export interface BlockLines {
  search: string[];
  replace: string[];
  /** The file line the model says SEARCH starts at, when it said one. */
  startLine: number | null;
  /** A block without its REPLACE marker ended with a closing fence (dropped from `replace`). */
  fenceClosed: boolean;
}

export interface RawBlockLines extends BlockLines {
  endLine: number | null;
  /** The block ended with its REPLACE marker (false: at the end of the input without one). */
  closed: boolean;
}

/** `12 | text` as `read_file` numbers a line: group 1 the number; the `|` is not a `||`. */
const NUMBERED = /^[ \t]*(\d+)[ \t]*\|(?!\|) ?/;
/** A line the block grammar reads as a marker (or Roo's `-------` separator), not as text. */
export const MARKER_LINE =
  /^[ \t]*(?:(?:<{5,9}|-{3,})[ \t]*SEARCH>?|={5,9}|(?:>{5,9}|\+{3,})[ \t]*REPLACE<?|-------)[ \t]*$/;
/** A marker line escaped with a backslash so it can be content (Roo Code's `\=======`). */
export function isEscapedMarker(line: string): boolean {
  return line.startsWith('\\') && MARKER_LINE.test(line.slice(1));
}
/** A closing markdown fence. */
const CLOSING_FENCE = /^[ \t]*(?:`{3,}|~{3,})[ \t]*$/;
const BLANK = /^[ \t]*$/;

export function blockLines(raw: RawBlockLines): BlockLines {
  let { search, replace } = raw;
  let startLine = raw.startLine;
  let fenceClosed = false;
  if (!raw.closed) {
    const kept = withoutClosingFence(replace);
    fenceClosed = kept.length < replace.length && !BLANK.test(replace[kept.length]!);
    replace = kept;
  }
  const numbers = lineNumbers(search);
  if (numbers !== null) {
    search = search.map(stripNumber);
    startLine ??= numbers[0]!;
    if (lineNumbers(replace, false) !== null) replace = replace.map(stripNumber);
  }
  search = search.map(unescapeMarker);
  replace = replace.map(unescapeMarker);
  if (search.every((l) => BLANK.test(l))) search = [];
  return { search, replace, startLine, fenceClosed };
}

/**
 * The numbers of lines that all carry a `N | ` prefix (and, when `consecutive`, count up by one,
 * as a file's lines do); null otherwise: code such as `0 | FLAG` on one line is content.
 */
function lineNumbers(lines: readonly string[], consecutive = true): number[] | null {
  if (lines.length === 0) return null;
  const numbers: number[] = [];
  for (const line of lines) {
    const match = NUMBERED.exec(line);
    if (match === null) return null;
    const n = Number(match[1]);
    if (consecutive && numbers.length > 0 && n !== numbers[numbers.length - 1]! + 1) return null;
    numbers.push(n);
  }
  return numbers;
}

function stripNumber(line: string): string {
  return line.replace(NUMBERED, '');
}

function unescapeMarker(line: string): string {
  return isEscapedMarker(line) ? line.slice(1) : line;
}

/** REPLACE lines that ran to the end of the input: a closing fence and blank lines after the code are not part of it. */
function withoutClosingFence(lines: readonly string[]): string[] {
  let end = lines.length;
  while (end > 0 && BLANK.test(lines[end - 1]!)) end--;
  if (end > 0 && CLOSING_FENCE.test(lines[end - 1]!)) end--;
  return lines.slice(0, end);
}

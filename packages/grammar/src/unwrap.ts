/**
 * Removes what models wrap around a patch: surrounding blank lines, a markdown code fence, a
 * shell heredoc (`<<EOF`, `<<'EOF'`, `<<"EOF"`, with or without a leading `cat` / `apply_patch`).
 * Also drops a leading BOM and the `\r` of CRLF line endings. Neither changes how many lines
 * precede a given line, so line numbers stay those of the input as given.
 */

export interface Unwrapped {
  /** The patch body: `\n`-separated lines, no `\r` before a `\n`, no surrounding blank lines. */
  body: string;
  /** 1-based line, in the input as given, of the body's first line. */
  firstLine: number;
}

/** A line of the text, by its offsets (end excludes the `\n`). */
interface LineSpan {
  start: number;
  end: number;
}

/**
 * The text's lines, without a BOM, the `\r` of CRLF endings or the empty string after a final
 * newline: line `i` of the result is line `i + 1` of the input as given.
 */
export function normalizeLines(text: string): string[] {
  const normalized = stripCarriageReturns(stripBom(text));
  const lines = normalized.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** An opening markdown fence, optionally with an info string: ```` ``` ````, ```` ```diff ````, `~~~patch`. */
const OPENING_FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*[\w.+-]*[ \t]*$/;
/** A closing markdown fence. */
const CLOSING_FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
/** A heredoc start, `cat <<'EOF'`, `apply_patch <<"PATCH"`, `<<-EOF`: group 2 is the delimiter. */
const HEREDOC_START = /^[ \t]*(?:(?:cat|apply_patch)[ \t]+)?<<-?[ \t]*(['"]?)([A-Za-z_][\w-]*)\1[ \t]*$/;
/** Whitespace-only. */
const BLANK = /^[ \t\f\v\u00a0\ufeff]*$/;

export interface UnwrapOptions {
  /**
   * Keep the `\r` of CRLF lines unless every line of the text is CRLF: a byte-exact diff shows a
   * CRLF line of a file as text ending with `\r`. Default: remove them all.
   */
  keepCarriageReturns?: boolean;
  /**
   * Keep a last line that starts with a space even when it is blank: in a unified diff it is the
   * empty context line a hunk can end with. Default: blank last lines go.
   */
  keepSpaceLedLastLine?: boolean;
}

export function unwrapPatch(text: string, options: UnwrapOptions = {}): Unwrapped {
  const withoutBom = stripBom(text);
  const normalized =
    options.keepCarriageReturns && !isAllCrlf(withoutBom) ? withoutBom : stripCarriageReturns(withoutBom);
  let first = firstLineSpan(normalized);
  let last = lastLineSpan(normalized);
  let firstLine = 1;

  const isBlank = (span: LineSpan) => BLANK.test(normalized.slice(span.start, span.end));
  const lineText = (span: LineSpan) => normalized.slice(span.start, span.end);
  const next = (span: LineSpan): LineSpan | null => {
    if (span.end >= normalized.length) return null;
    const start = span.end + 1;
    const nl = normalized.indexOf('\n', start);
    return { start, end: nl === -1 ? normalized.length : nl };
  };
  const previous = (span: LineSpan): LineSpan | null => {
    if (span.start === 0) return null;
    const end = span.start - 1;
    return { start: end === 0 ? 0 : normalized.lastIndexOf('\n', end - 1) + 1, end };
  };
  /** Drops the first line; false when it was the last one. */
  const dropFirst = (): boolean => {
    const n = next(first);
    if (n === null || n.start > last.start) return false;
    first = n;
    firstLine++;
    return true;
  };
  /** Drops the last line; false when it was the first one. */
  const dropLast = (): boolean => {
    const p = previous(last);
    if (p === null || p.start < first.start) return false;
    last = p;
    return true;
  };
  const trimBlankLines = (): boolean => {
    while (isBlank(first)) if (!dropFirst()) return false;
    while (isBlank(last) && !(options.keepSpaceLedLastLine && lineText(last).startsWith(' ')))
      if (!dropLast()) return false;
    return true;
  };

  let changed = true;
  while (changed) {
    if (!trimBlankLines()) return { body: '', firstLine: 1 };
    changed = false;
    if (first.start === last.start) break;
    const head = lineText(first);
    const tail = lineText(last);
    if (isFencePair(head, tail) || isHeredocPair(head, tail)) {
      dropFirst();
      // Nothing between the opening and the closing line.
      if (!dropLast()) return { body: '', firstLine: 1 };
      changed = true;
    }
  }
  return { body: normalized.slice(first.start, last.end), firstLine };
}

/** An opening fence on the first line and a closing fence of the same kind on the last. */
function isFencePair(head: string, tail: string): boolean {
  const open = OPENING_FENCE.exec(head);
  const close = CLOSING_FENCE.exec(tail);
  return (
    open !== null && close !== null && open[1]![0] === close[1]![0] && close[1]!.length >= open[1]!.length
  );
}

/** A heredoc start on the first line and its delimiter alone on the last. */
function isHeredocPair(head: string, tail: string): boolean {
  const start = HEREDOC_START.exec(head);
  return start !== null && tail.trim() === start[2];
}

/** Every `\n` of the text follows a `\r`: the text itself was saved with CRLF endings. */
function isAllCrlf(text: string): boolean {
  return text.includes('\r\n') && !/(?:^|[^\r])\n/.test(text);
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** CRLF to LF (and a final lone `\r`); a `\r` inside a line is content. */
function stripCarriageReturns(text: string): string {
  return text.includes('\r') ? text.replace(/\r(?=\n|$)/g, '') : text;
}

function firstLineSpan(text: string): LineSpan {
  const nl = text.indexOf('\n');
  return { start: 0, end: nl === -1 ? text.length : nl };
}

function lastLineSpan(text: string): LineSpan {
  return { start: text.lastIndexOf('\n') + 1, end: text.length };
}

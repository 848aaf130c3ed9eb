/**
 * Removes what models wrap around a patch: surrounding blank lines, a markdown code fence, a
 * shell heredoc (`<<EOF`, `<<'EOF'`, `<<"EOF"`, with or without a leading `cat` / `apply_patch` /
 * `applypatch`, a `cd DIR &&` before it, inside `bash -lc "…"`), a notebook's `%%bash` line.
 * Also drops a leading BOM and the `\r` of CRLF line endings. Neither changes how many lines
 * precede a given line, so line numbers stay those of the input as given.
 */

export interface Unwrapped {
  /** The patch body: `\n`-separated lines, no `\r` before a `\n`, no surrounding blank lines. */
  body: string;
  /** 1-based line, in the input as given, of the body's first line. */
  firstLine: number;
  /** The folder a `cd DIR && apply_patch <<EOF` wrapper changed to, as written: the patch's paths are relative to it. */
  folder?: string;
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

/**
 * The lines that would close the wrappers the text opens with (a fence, a heredoc, `bash -lc "`),
 * innermost first, each ending with `\n`: a stream parses what has arrived as if it were whole.
 */
export function wrapperClosers(text: string): string {
  const closers: string[] = [];
  for (const line of normalizeLines(text)) {
    if (BLANK.test(line) || CELL_MAGIC.test(line)) continue;
    const fence = OPENING_FENCE.exec(line);
    const heredoc = HEREDOC_START.exec(line)?.groups;
    if (fence !== null) closers.unshift(fence[1]!);
    else if (heredoc !== undefined) {
      if (heredoc.shell !== undefined) closers.unshift(heredoc.shell);
      closers.unshift(heredoc.delimiter!);
    } else break;
  }
  return closers.map((c) => `${c}\n`).join('');
}

/** The folder a heredoc start line `cd DIR && apply_patch <<EOF` changes to, unquoted; undefined for any other line. */
export function heredocFolder(line: string): string | undefined {
  const folder = HEREDOC_START.exec(line)?.groups?.folder;
  return folder === undefined ? undefined : unquote(folder);
}

/**
 * A `cd DIR && apply_patch <<EOF` line that unwrapping left in the body: its heredoc never closed
 * (a reply cut off), so where the paths lead is unknown. Its 1-based line, or null.
 */
export function unclosedFolderLine(unwrapped: Unwrapped): number | null {
  if (unwrapped.folder !== undefined) return null;
  const lines = unwrapped.body.split('\n', 3);
  for (let i = 0; i < lines.length; i++) {
    if (HEREDOC_START.exec(lines[i]!)?.groups?.folder !== undefined) return unwrapped.firstLine + i;
  }
  return null;
}

/** An opening markdown fence, optionally with an info string: ```` ``` ````, ```` ```diff ````, `~~~patch`. */
const OPENING_FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*(?:[\w.+-]+[ \t]*)?$/;
/** A closing markdown fence. */
const CLOSING_FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
/**
 * A heredoc start: `cat <<'EOF'`, `apply_patch <<"PATCH"`, `<<-EOF`, `cd src && applypatch <<EOF`,
 * `bash -lc "apply_patch <<'EOF'`. Groups: `shell` the quote opening `bash -lc`'s script, `folder`
 * the `cd` argument (quoted or bare), `delimiter`.
 */
const HEREDOC_START =
  /^[ \t]*(?:(?:ba|z)?sh[ \t]+-l?c[ \t]+(?<shell>["'])[ \t]*)?(?:cd[ \t]+(?<folder>"[^"]*"|'[^']*'|[^\s&;|'"]+)[ \t]*&&[ \t]*)?(?:(?:cat|apply_patch|applypatch)[ \t]*)?<<-?[ \t]*(['"]?)(?<delimiter>[A-Za-z_][\w-]*)\3[ \t]*$/;
/** A notebook cell's magic line running the cell in a shell. */
const CELL_MAGIC = /^[ \t]*%%(?:bash|sh|script[ \t]+(?:ba)?sh)[ \t]*$/;
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

  let folder: string | undefined;
  let changed = true;
  while (changed) {
    if (!trimBlankLines()) return { body: '', firstLine: 1 };
    changed = false;
    if (first.start === last.start) break;
    const head = lineText(first);
    if (CELL_MAGIC.test(head)) {
      dropFirst();
      changed = true;
      continue;
    }
    const heredoc = HEREDOC_START.exec(head)?.groups;
    // `bash -lc "…<<EOF` closes its script with the quote alone on the line after the delimiter.
    const beforeLast = previous(last);
    if (
      heredoc?.shell !== undefined &&
      lineText(last).trim() === heredoc.shell &&
      beforeLast !== null &&
      beforeLast.start > first.start &&
      lineText(beforeLast).trim() === heredoc.delimiter
    )
      dropLast();
    const tail = lineText(last);
    if (isFencePair(head, tail) || (heredoc !== undefined && isHeredocEnd(tail, heredoc))) {
      dropFirst();
      // Nothing between the opening and the closing line.
      if (!dropLast()) return { body: '', firstLine: 1 };
      if (heredoc?.folder !== undefined) folder ??= unquote(heredoc.folder);
      changed = true;
    }
  }
  return {
    body: normalized.slice(first.start, last.end),
    firstLine,
    ...(folder !== undefined && { folder }),
  };
}

/** An opening fence on the first line and a closing fence of the same kind on the last. */
function isFencePair(head: string, tail: string): boolean {
  const open = OPENING_FENCE.exec(head);
  const close = CLOSING_FENCE.exec(tail);
  return (
    open !== null && close !== null && open[1]![0] === close[1]![0] && close[1]!.length >= open[1]!.length
  );
}

/** The heredoc's delimiter alone on the line, or followed by the quote closing `bash -lc`'s script. */
function isHeredocEnd(tail: string, heredoc: Record<string, string | undefined>): boolean {
  const end = tail.trim();
  return (
    end === heredoc.delimiter ||
    (heredoc.shell !== undefined && end === `${heredoc.delimiter}${heredoc.shell}`)
  );
}

/** A shell word without its surrounding quotes. */
function unquote(word: string): string {
  return /^(["']).*\1$/.test(word) ? word.slice(1, -1) : word;
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

/** A line ending as found in the file; only a file's last line may have none. */
export type LineEnding = '' | '\n' | '\r\n' | '\r';

export interface Line {
  text: string;
  ending: LineEnding;
}

/** Decoded text of a file: its lines, each with its own ending, and whether a BOM led it. */
export interface TextContent {
  bom: boolean;
  lines: Line[];
}

const LINE = /([^\r\n]*)(\r\n|\n|\r|$)/y;

/** Splits text into lines; `\r\n`, `\n` and a bare `\r` all end a line, and each line keeps its ending. */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  LINE.lastIndex = 0;
  while (LINE.lastIndex < text.length) {
    const match = LINE.exec(text);
    if (match === null) break;
    lines.push({ text: match[1] ?? '', ending: (match[2] ?? '') as LineEnding });
  }
  return lines;
}

/** The inverse of `splitLines`. */
export function joinLines(lines: readonly Line[]): string {
  let out = '';
  for (const line of lines) out += line.text + line.ending;
  return out;
}

/** The ending new lines take: the file's first one, LF when the file has none. */
export function firstEnding(lines: readonly Line[]): Exclude<LineEnding, ''> {
  for (const line of lines) if (line.ending !== '') return line.ending;
  return '\n';
}

/** Whether the file ends with a line ending; an empty file counts as terminated, so lines added to it end with one. */
export function hasFinalNewline(lines: readonly Line[]): boolean {
  const last = lines[lines.length - 1];
  return last === undefined || last.ending !== '';
}

/**
 * Repairs endings after lines were inserted or removed: a line that is no longer last gets an
 * ending (the file's first), and the last line follows the file's original final-newline state.
 */
export function settleEndings(lines: Line[], ending: Exclude<LineEnding, ''>, finalNewline: boolean): Line[] {
  return lines.map((line, i) => {
    const isLast = i === lines.length - 1;
    if (!isLast) return line.ending === '' ? { text: line.text, ending } : line;
    if (!finalNewline) return line.ending === '' ? line : { text: line.text, ending: '' };
    return line.ending === '' ? { text: line.text, ending } : line;
  });
}

const BOM = '\uFEFF';
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** Decodes a file as text, or answers null when it is binary: not valid UTF-8, or holding a NUL byte. */
export function decodeText(bytes: Uint8Array): TextContent | null {
  if (bytes.includes(0)) return null;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return null;
  }
  const bom = text.startsWith(BOM);
  return { bom, lines: splitLines(bom ? text.slice(BOM.length) : text) };
}

/** The inverse of `decodeText` for text content. */
export function encodeText(content: TextContent): Uint8Array {
  return encoder.encode((content.bom ? BOM : '') + joinLines(content.lines));
}

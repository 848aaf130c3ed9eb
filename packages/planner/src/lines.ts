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

/**
 * Splits text into lines; `\r\n`, `\n` and a bare `\r` all end a line, and each line keeps its ending.
 * One `charCodeAt` pass: unlike `indexOf` from an offset, it stays linear on a string V8 holds as a
 * rope (text built by concatenation), where repeated `indexOf` calls turned quadratic.
 */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const length = text.length;
  let start = 0;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) {
      lines.push({ text: text.slice(start, i), ending: '\n' });
      start = i + 1;
    } else if (code === 13) {
      if (text.charCodeAt(i + 1) === 10) {
        lines.push({ text: text.slice(start, i), ending: '\r\n' });
        i++;
      } else lines.push({ text: text.slice(start, i), ending: '\r' });
      start = i + 1;
    }
  }
  if (start < length) lines.push({ text: text.slice(start), ending: '' });
  return lines;
}

/** The inverse of `splitLines`. */
export function joinLines(lines: readonly Line[]): string {
  // Array join yields a flat string; `+=` would build a rope that later scans pay for.
  const parts = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) parts[i] = lines[i]!.text + lines[i]!.ending;
  return parts.join('');
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
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return null;
  }
  // A NUL byte decodes to U+0000 and only to it; a string search is much faster than a byte scan.
  if (text.includes('\0')) return null;
  const bom = text.startsWith(BOM);
  return { bom, lines: splitLines(bom ? text.slice(BOM.length) : text) };
}

/** The inverse of `decodeText` for text content. */
export function encodeText(content: TextContent): Uint8Array {
  return encodeUtf8((content.bom ? BOM : '') + joinLines(content.lines));
}

/** Node's Buffer encodes several times faster than TextEncoder; below this size it shares a pool, though. */
const OWN_BUFFER_BYTES = 64 * 1024;

/**
 * UTF-8 bytes of a text, as TextEncoder writes them (a lone surrogate as U+FFFD). Large texts go
 * through Buffer, returned as a plain Uint8Array over the buffer's own memory.
 */
export function encodeUtf8(text: string): Uint8Array {
  if (text.length < OWN_BUFFER_BYTES) return encoder.encode(text);
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.byteOffset !== 0 || buffer.byteLength !== buffer.buffer.byteLength) return encoder.encode(text);
  return new Uint8Array(buffer.buffer, 0, buffer.byteLength);
}

/**
 * `encodeText`, also telling whether `decodeText` of the bytes gives these very lines back, so a
 * caller may keep them instead of decoding again. Judged on the joined text, without decoding.
 */
export function encodeTextChecked(content: TextContent): { bytes: Uint8Array; decodesBack: boolean } {
  const text = (content.bom ? BOM : '') + joinLines(content.lines);
  return { bytes: encodeUtf8(text), decodesBack: decodesBack(content, text) };
}

/**
 * Whether `text` (the content joined, BOM included) encodes and decodes back to the same content:
 * UTF-8 keeps it (no lone surrogate), it has no NUL, the BOM reads the same, no line text holds a
 * line break, and no two endings merge (a CR ending then an empty LF-ended line reads as CRLF).
 */
function decodesBack(content: TextContent, text: string): boolean {
  if (!isWellFormed(text) || text.includes('\0')) return false;
  const { lines } = content;
  if (!content.bom && lines[0]?.text.startsWith(BOM)) return false;
  let lf = 0;
  let cr = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const ending = line.ending;
    if (ending === '') {
      if (i !== lines.length - 1 || line.text === '') return false;
    } else if (ending === '\n') lf++;
    else if (ending === '\r\n') {
      cr++;
      lf++;
    } else {
      cr++;
      const next = lines[i + 1];
      if (next !== undefined && next.text === '' && next.ending === '\n') return false;
    }
  }
  return count(text, '\n') === lf && count(text, '\r') === cr;
}

/** No lone surrogate (which UTF-8 would write as U+FFFD). ES2024's `isWellFormed`, in Node since 20. */
function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** Occurrences of one character. */
function count(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) n++;
  return n;
}

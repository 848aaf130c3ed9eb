/**
 * git's `GIT binary patch` (what `git diff --binary` writes for a binary file): after the header
 * line, a forward hunk and, from git, a reverse one, each `literal <size>` or `delta <size>`, lines
 * of base85 (a length letter, then five characters per four bytes), zlib-deflated, and an empty
 * line. This reads the hunks from the diff's body (the grammar skips their lines) and decodes them;
 * every malformed line is a PARSE_ERROR naming it. Applying a delta needs the old bytes: the planner.
 */
import { createRequire } from 'node:module';
import { type BinaryHunk, type BinaryPatch, type EditError, MAX_BINARY_BYTES } from '@patchsmith/core';
import type { LineOf } from './unified-section.js';
import { parseError } from './unified-section.js';

/** node:zlib on first use: with the stream modules it loads, ~18 M instructions of every start-up. */
const zlib = (): typeof import('node:zlib') => createRequire(import.meta.url)('node:zlib');

/** git's base85 alphabet (base85.c), in digit order. */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';
const DIGIT = new Map([...ALPHABET].map((c, i) => [c, i]));
const HUNK_HEADER = /^(literal|delta) ([0-9]{1,12})$/;
const INDEX_IDS = /^([0-9a-f]{4,64})\.\.([0-9a-f]{4,64})(?: |$)/;

/** What the section around the binary patch says: its names, mode, and where its header line is. */
export interface BinarySection {
  old: string | null;
  new: string | null;
  copy: boolean;
  mode?: number;
  /** The `index` header's value (`<old>..<new> [mode]`) and line, when there is one. */
  index?: { value: string; line: number };
  /** Body offset of the `GIT binary patch` line. */
  offset: number;
  line: number;
}

/** The binary operation of a section whose headers say `GIT binary patch`. */
export function binaryOperation(
  section: BinarySection,
  body: string,
  lineOf: LineOf,
): BinaryPatch | EditError {
  const headerEnd = body.indexOf('\n', section.offset);
  const lines = new BodyLines(body, headerEnd === -1 ? body.length : headerEnd + 1, lineOf);
  const forward = readHunk(lines);
  if ('code' in forward) return forward;
  const reverse = lines.atHunkHeader() ? readHunk(lines) : undefined;
  if (reverse !== undefined && 'code' in reverse) return reverse;
  const ids = section.index === undefined ? null : INDEX_IDS.exec(section.index.value.toLowerCase());
  if (section.index !== undefined && ids === null) {
    return parseError(
      "the 'index' line needs two blob ids ('index <old>..<new>'), as git writes them",
      section.index.line,
      "'index <old-id>..<new-id>'",
    );
  }
  const change = section.old === null ? 'add' : section.new === null ? 'delete' : 'update';
  const path = (section.old ?? section.new)!;
  const moved = change === 'update' && (section.new !== section.old || section.copy);
  return {
    kind: 'binary',
    change,
    path,
    ...(moved ? { movePath: section.new! } : {}),
    ...(moved && section.copy ? { copy: true } : {}),
    ...(section.mode !== undefined ? { mode: section.mode } : {}),
    ...(ids !== null ? { oldId: ids[1]!, newId: ids[2]! } : {}),
    forward,
    ...(reverse !== undefined ? { reverse } : {}),
    line: section.line,
  };
}

/** The body's lines from an offset, one at a time, with their input line numbers. */
class BodyLines {
  constructor(
    private readonly body: string,
    private offset: number,
    private readonly lineOf: LineOf,
  ) {}

  /** The next line without its ending (null at the end), and its input line. */
  peek(): { text: string; line: number } | null {
    if (this.offset >= this.body.length) return null;
    const end = this.body.indexOf('\n', this.offset);
    const text = this.body.slice(this.offset, end === -1 ? this.body.length : end).replace(/\r$/, '');
    return { text, line: this.lineOf(this.offset) };
  }

  next(): void {
    const end = this.body.indexOf('\n', this.offset);
    this.offset = end === -1 ? this.body.length : end + 1;
  }

  /** The next line is a `literal`/`delta` header. */
  atHunkHeader(): boolean {
    const next = this.peek();
    return next !== null && HUNK_HEADER.test(next.text);
  }

  /** The input line after the last one, for an error at the end of the diff. */
  endLine(): number {
    return this.lineOf(this.body.length) + 1;
  }
}

/** One hunk: its header, its base85 lines up to an empty line (or the end), inflated. */
function readHunk(lines: BodyLines): BinaryHunk | EditError {
  const header = lines.peek();
  const match = header === null ? null : HUNK_HEADER.exec(header.text);
  if (header === null || match === null) {
    return parseError(
      `expected a binary hunk header ('literal <size>' or 'delta <size>') after 'GIT binary patch'; found ${
        header === null ? 'the end of the diff' : JSON.stringify(header.text.slice(0, 80))
      }`,
      header?.line ?? lines.endLine(),
      "'literal <size>' or 'delta <size>'",
    );
  }
  lines.next();
  const method = match[1] as 'literal' | 'delta';
  const size = Number(match[2]);
  if (size > MAX_BINARY_BYTES) {
    return parseError(`the binary hunk's size ${size} is larger than ${MAX_BINARY_BYTES} bytes`, header.line);
  }
  const parts: Uint8Array[] = [];
  for (let data = lines.peek(); data !== null && data.text !== ''; data = lines.peek()) {
    const decoded = decodeBase85Line(data.text);
    if (typeof decoded === 'string') return parseError(`malformed binary patch data: ${decoded}`, data.line);
    parts.push(decoded);
    lines.next();
  }
  if (lines.peek() !== null) lines.next();
  const inflated = inflate(Buffer.concat(parts), size);
  if (typeof inflated === 'string') {
    return parseError(`the data of the binary hunk '${header.text}' ${inflated}`, header.line);
  }
  return { method, data: inflated, line: header.line };
}

/** The zlib stream inflated, when it inflates to exactly `size` bytes; else why not. */
function inflate(deflated: Uint8Array, size: number): Uint8Array | string {
  if (deflated.length === 0) return 'is missing (no base85 line follows the header)';
  let inflated: Buffer;
  try {
    // One byte more than announced, so a stream that inflates further is caught without inflating it all.
    inflated = zlib().inflateSync(deflated, { maxOutputLength: size + 1 });
  } catch (error) {
    if (error instanceof RangeError) return `inflates to more than the ${size} bytes its header says`;
    return `is not a valid zlib stream (${(error as { code?: string }).code ?? 'corrupt data'})`;
  }
  if (inflated.length !== size)
    return `inflates to ${inflated.length} bytes, not the ${size} its header says`;
  return new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.length);
}

/**
 * One line of git's base85: a letter giving the byte count (`A`–`Z` 1–26, `a`–`z` 27–52), then
 * five characters for every four bytes (the last group padded). The bytes, or what is wrong.
 */
export function decodeBase85Line(text: string): Uint8Array | string {
  const count = byteCount(text.charCodeAt(0));
  if (count === 0)
    return `the line must start with a length letter (A-Z, a-z), not ${JSON.stringify(text.slice(0, 1))}`;
  const groups = Math.ceil(count / 4);
  if (text.length !== 1 + groups * 5) {
    return `a line of ${count} bytes has ${groups * 5} base85 characters, this one ${text.length - 1}`;
  }
  const out = new Uint8Array(groups * 4);
  for (let g = 0; g < groups; g++) {
    let value = 0;
    for (let k = 0; k < 5; k++) {
      const c = text[1 + g * 5 + k]!;
      const digit = DIGIT.get(c);
      if (digit === undefined) return `${JSON.stringify(c)} is not a base85 character`;
      value = value * 85 + digit;
    }
    if (value > 0xffffffff)
      return `the group ${JSON.stringify(text.slice(1 + g * 5, 6 + g * 5))} overflows 32 bits`;
    out[g * 4] = value >>> 24;
    out[g * 4 + 1] = (value >>> 16) & 0xff;
    out[g * 4 + 2] = (value >>> 8) & 0xff;
    out[g * 4 + 3] = value & 0xff;
  }
  return out.subarray(0, count);
}

/** The byte count a base85 line's first character gives; 0 when it is not a length letter. */
function byteCount(code: number): number {
  if (code >= 65 && code <= 90) return code - 64;
  if (code >= 97 && code <= 122) return code - 96 + 26;
  return 0;
}

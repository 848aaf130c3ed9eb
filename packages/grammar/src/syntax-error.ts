/**
 * Turns a Peggy syntax error on the patch body into a PARSE_ERROR that names the line of the
 * input as given and says what was expected there.
 */
import type { EditError, Result } from '@patchsmith/core';
import type { SyntaxError as PeggySyntaxError } from './generated/codex.js';

type Expectation = NonNullable<PeggySyntaxError['expected']>[number];

const FILE_HEADERS = ["'*** Add File: <path>'", "'*** Delete File: <path>'", "'*** Update File: <path>'"];
const FOUND_MAX_CHARS = 80;

export function syntaxErrorToEditError(error: PeggySyntaxError, body: string, firstLine: number): EditError {
  const offset = error.location.start.offset;
  const lineStart = body.lastIndexOf('\n', offset - 1) + 1;
  let bodyLine = error.location.start.line;
  let found: string;
  if (isAtEndOfInput(offset, body)) {
    found = 'the end of the patch';
    // The missing line would come after the last one.
    if (offset > lineStart) bodyLine++;
  } else {
    found = quoteLine(lineAt(body, lineStart));
  }
  const expected = isCustomError(error) ? error.message : describeExpectations(error.expected ?? []);
  const line = firstLine + bodyLine - 1;
  return {
    code: 'PARSE_ERROR',
    message: `line ${line}: expected ${expected}; found ${found}`,
    line,
    expected,
  };
}

/** Raised by the grammar's own `error(...)`, whose message is the description of what was expected. */
function isCustomError(error: PeggySyntaxError): boolean {
  return error.expected === null;
}

/** The failure sits where nothing is left to read. */
function isAtEndOfInput(offset: number, body: string): boolean {
  return offset >= body.length;
}

function lineAt(body: string, lineStart: number): string {
  const end = body.indexOf('\n', lineStart);
  return body.slice(lineStart, end === -1 ? body.length : end);
}

function quoteLine(text: string): string {
  if (text === '') return 'an empty line';
  const shown = text.length > FOUND_MAX_CHARS ? `${text.slice(0, FOUND_MAX_CHARS)}…` : text;
  return JSON.stringify(shown);
}

/** `a, b or c`, in the order the grammar tried them, each once; the three file headers as one item. */
export function describeExpectations(expected: readonly Expectation[]): string {
  const items: string[] = [];
  for (const e of expected) {
    const description = describeExpectation(e);
    if (!items.includes(description)) items.push(description);
  }
  const merged = mergeFileHeaders(items);
  if (merged.length === 0) return 'a valid patch line';
  if (merged.length === 1) return merged[0]!;
  return `${merged.slice(0, -1).join(', ')} or ${merged.at(-1)}`;
}

function describeExpectation(e: Expectation): string {
  switch (e.type) {
    case 'other':
      return e.description;
    case 'end':
      return 'the end of the patch';
    case 'literal':
      return JSON.stringify(e.text);
    case 'any':
      return 'any character';
    case 'class':
      return `a character of [${e.inverted ? '^' : ''}${e.parts.map((p) => (typeof p === 'string' ? p : `${p[0]}-${p[1]}`)).join('')}]`;
  }
}

function mergeFileHeaders(items: string[]): string[] {
  if (!FILE_HEADERS.every((h) => items.includes(h))) return items;
  const at = items.indexOf(FILE_HEADERS[0]!);
  const rest = items.filter((i) => !FILE_HEADERS.includes(i));
  rest.splice(at, 0, `a file header (${FILE_HEADERS.slice(0, 2).join(', ')} or ${FILE_HEADERS[2]})`);
  return rest;
}

/** A Peggy-generated parser module: its `parse` and its own SyntaxError class. */
export interface GeneratedParser {
  parse(input: string): unknown;
  SyntaxError: abstract new (...args: never[]) => PeggySyntaxError;
}

/**
 * Runs a generated parser on a patch body. Its syntax error becomes a PARSE_ERROR naming the line of
 * the input as given; anything else is a bug and propagates.
 */
export function runParser<T>(parser: GeneratedParser, body: string, firstLine: number): Result<T> {
  try {
    return { ok: true, value: parser.parse(body) as T };
  } catch (error) {
    if (error instanceof parser.SyntaxError) {
      return { ok: false, errors: [syntaxErrorToEditError(error, body, firstLine)] };
    }
    throw error;
  }
}

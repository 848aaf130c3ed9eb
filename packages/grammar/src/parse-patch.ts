/**
 * Parses a Codex patch (`*** Begin Patch` ... `*** End Patch`) into an edit script, with the
 * leniency of SPEC §1. User mistakes come back as `{ok: false}` values, never as exceptions.
 */
import type { EditError, EditScript, Operation, Result } from '@patchsmith/core';
import * as generated from './generated/codex.js';
import { inUnwrappedFolder } from './in-folder.js';
import { forwardLineCounter } from './line-counter.js';
import { runParser } from './syntax-error.js';
import { unwrapPatch } from './unwrap.js';
import { notWellFormedPatch } from './well-formed.js';

export function parsePatch(text: string): Result<EditScript> {
  const malformed = notWellFormedPatch(text);
  if (malformed !== null) return failure(malformed);
  const unwrapped = unwrapPatch(text);
  if (unwrapped.body === '') return failure(emptyInput());
  const { body, firstLine } = withPatchMarkers(unwrapped.body, unwrapped.firstLine);
  // The grammar builds the operations with body offsets in their `line` fields.
  const parsed = runParser<Operation[]>(generated, body, firstLine);
  if (!parsed.ok) return parsed;
  const operations = parsed.value;
  if (operations.length === 0) return failure(noOperation(body, firstLine));
  resolveLineNumbers(operations, body, firstLine);
  const script: EditScript = { format: 'codex', operations };
  return inUnwrappedFolder(script, unwrapped);
}

/** A file header on the first line: a patch whose `*** Begin Patch` (and maybe `*** End Patch`) the model left out. */
const HEADER_FIRST = /^[ \t]*\*\*\* (?:Add|Update|Delete) File: /;
const END_LAST = /\n[ \t]*\*\*\* End Patch[ \t]*$/;

/** The body with the markers a bare sequence of file operations lacks; line numbers stay those of the input. */
function withPatchMarkers(body: string, firstLine: number): { body: string; firstLine: number } {
  if (!HEADER_FIRST.test(body)) return { body, firstLine };
  const end = END_LAST.test(body) ? '' : '\n*** End Patch';
  return { body: `*** Begin Patch\n${body}${end}`, firstLine: firstLine - 1 };
}

function failure(error: EditError): Result<EditScript> {
  return { ok: false, errors: [error] };
}

function emptyInput(): EditError {
  const expected = "'*** Begin Patch'";
  return { code: 'EMPTY_PATCH', message: 'line 1: the patch is empty', line: 1, expected };
}

/** `*** Begin Patch` then `*** End Patch`: the End line is the body's last. */
function noOperation(body: string, firstLine: number): EditError {
  let line = firstLine;
  for (let i = body.indexOf('\n'); i !== -1; i = body.indexOf('\n', i + 1)) line++;
  const expected = "a file operation ('*** Add File:', '*** Delete File:' or '*** Update File:')";
  return {
    code: 'EMPTY_PATCH',
    message: `line ${line}: the patch has no operation; expected ${expected} before '*** End Patch'`,
    line,
    expected,
  };
}

/**
 * Replaces the body offsets in every `line` field by 1-based lines of the input as given. Offsets
 * only grow in document order, so one forward scan serves them all.
 */
function resolveLineNumbers(operations: Operation[], body: string, firstLine: number): void {
  const lineOf = forwardLineCounter(body, firstLine);
  for (const op of operations) {
    op.line = lineOf(op.line);
    if (op.kind !== 'update') continue;
    for (const chunk of op.chunks) {
      chunk.line = lineOf(chunk.line);
      for (const anchor of chunk.anchors) anchor.line = lineOf(anchor.line);
      for (const l of chunk.lines) l.line = lineOf(l.line);
    }
  }
}

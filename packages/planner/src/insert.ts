import { type InsertText, textLines } from '@patchsmith/core';
import { describeChange } from './diff.js';
import type { OpOutcome } from './outcome.js';
import { binaryFile } from './replace.js';
import { fileRequired, type PlanState } from './state.js';

/** An `insert_line` that names a place in a file of `count` lines: 0 (the top) to `count` (the end). */
function isInRange(after: number, count: number): boolean {
  return Number.isInteger(after) && after >= 0 && after <= count;
}

/**
 * The lines an `insert` writes: the text's lines, and one empty line for an empty `new_str` (as the
 * agent SDKs' text-editor tools insert it), so an insert never succeeds without changing the file.
 */
function insertedLines(text: string): string[] {
  return text === '' ? [''] : textLines(text);
}

/** str_replace `insert`: `text` as whole lines after line `after` (0: at the top), in the file's line breaks. */
export function planInsert(op: InsertText, path: string, state: PlanState): OpOutcome {
  const slot = state.get(path);
  const refused = fileRequired(slot, path, op.line);
  if (refused !== null || slot.kind !== 'file') return { ok: false, errors: refused ?? [], paths: [path] };
  const text = state.decode(slot.bytes);
  if (text === null) return binaryFile(path, op.line);
  const count = text.lines.length;
  if (!isInRange(op.after, count)) {
    const message = `insert_line ${op.after} is out of range for ${path}: it has ${count} lines, so 0 to ${count} are allowed`;
    return { ok: false, errors: [{ code: 'INVALID_EDIT', message, path, line: op.line }], paths: [path] };
  }
  const { lines } = text;
  const ending = lines.firstEnding();
  const inserted = insertedLines(op.text)
    .map((line) => line + ending)
    .join('');
  // At the end of a file without a final newline, its last line gains one and the inserted lines' last loses it.
  const atOpenEnd = op.after === count && !lines.hasFinalNewline();
  const joined = atOpenEnd
    ? lines.text + ending + inserted.slice(0, -ending.length)
    : lines.raw(0, op.after) + inserted + lines.raw(op.after, count);
  const bytes = state.encode(text.bom, joined);
  const change = describeChange(path, path, slot.bytes, bytes, (b) => state.decode(b));
  return {
    ok: true,
    file: { path, op: 'update', ...change, chunks: [{ chunk: 0, line: op.after + 1, pass: 'exact' }] },
    changes: [[path, { kind: 'file', bytes, mode: slot.mode }]],
  };
}

import { locateText, type TextLocation } from '@patchsmith/fuzzy';
import type { EditError, ReplaceText } from '@patchsmith/core';
import { alreadyAppliedError, replaceAlreadyApplied } from './already-applied.js';
import type { LocateSettings } from './apply-chunks.js';
import { describeChange } from './diff.js';
import { firstEnding, hasFinalNewline, joinLines, type Line, settleEndings, splitLines } from './lines.js';
import { missError } from './miss-error.js';
import type { OpOutcome } from './outcome.js';
import { type FileSlot, fileRequired, type PlanState, writeRefused } from './state.js';
import type { ChunkReport } from './types.js';

const NEW_FILE_MODE = 0o644;
const encoder = new TextEncoder();

/**
 * A str_replace edit or a SEARCH/REPLACE block: located with `locateText` in the file as earlier
 * operations left it, then replaced (every occurrence with `all`). An empty search creates the
 * file, or appends to it when it exists.
 */
export function planReplace(
  op: ReplaceText,
  path: string,
  state: PlanState,
  settings: LocateSettings,
): OpOutcome {
  const slot = state.get(path);
  if (op.search === '') return createOrAppend(op, path, state);
  const refused = fileRequired(slot, path, op.line);
  if (refused !== null || slot.kind !== 'file') return { ok: false, errors: refused ?? [], paths: [path] };
  const text = state.decode(slot.bytes);
  if (text === null) return binaryFile(path, op.line);
  const located = locateText(
    text.lines,
    { search: op.search, replace: op.replace },
    {
      all: op.all,
      firstMatch: settings.firstMatch,
      wholeLines: op.wholeLines,
      nearest: settings.nearest.left > 0,
    },
  );
  if (!located.ok) {
    if (located.code === 'NO_MATCH' && replaceAlreadyApplied(text.lines, op))
      return { ok: false, errors: [alreadyAppliedError(path, op.line)], paths: [path], alreadyApplied: true };
    const error = missError(located, { path, chunk: 0, line: op.line }, settings.nearest);
    return { ok: false, errors: [error], paths: [path] };
  }
  const lines =
    located.kind === 'substring' ? replaceSubstrings(text.lines, located) : replaceLines(text.lines, located);
  const bytes = state.encode({ bom: text.bom, lines });
  return updated(path, slot, bytes, reports(located), state);
}

/** The exact occurrences replaced in the file's text, literally (no `$&` expansion). */
function replaceSubstrings(
  lines: readonly Line[],
  located: Extract<TextLocation, { kind: 'substring' }>,
): Line[] {
  const text = joinLines(lines);
  let out = '';
  let next = 0;
  for (const match of located.matches) {
    out += text.slice(next, match.start) + located.replacement;
    next = match.end;
  }
  return splitLines(out + text.slice(next));
}

/** Whole matched lines replaced; lines kept from the file keep their bytes, written ones take the file's first ending. */
function replaceLines(lines: readonly Line[], located: Extract<TextLocation, { kind: 'lines' }>): Line[] {
  const ending = firstEnding(lines);
  const out: Line[] = [];
  let next = 0;
  for (const match of located.matches) {
    for (let i = next; i < match.start; i++) out.push(lines[i]!);
    for (const piece of match.replacement) {
      out.push(piece.from === 'patch' ? { text: piece.text, ending } : lines[piece.index]!);
    }
    next = match.start + match.length;
  }
  for (let i = next; i < lines.length; i++) out.push(lines[i]!);
  return settleEndings(out, ending, hasFinalNewline(lines));
}

function reports(located: TextLocation): ChunkReport[] {
  const line = (located.kind === 'substring' ? located.matches[0]?.line : located.matches[0]?.start) ?? 0;
  const indent = located.kind === 'lines' ? located.matches[0]?.indent : undefined;
  return [{ chunk: 0, line: line + 1, pass: located.pass, ...(indent !== undefined && { indent }) }];
}

/** Empty SEARCH: the replace text becomes the file, or is appended (as whole lines, in the file's line breaks). */
function createOrAppend(op: ReplaceText, path: string, state: PlanState): OpOutcome {
  const slot = state.get(path);
  const refused = writeRefused(slot, path, op.line);
  if (refused !== null) return { ok: false, errors: refused, paths: [path] };
  if (slot.kind !== 'file') {
    const bytes = encoder.encode(op.replace);
    const change = describeChange(path, path, null, bytes);
    return {
      ok: true,
      file: { path, op: 'add', ...change, chunks: [] },
      changes: [[path, { kind: 'file', bytes, mode: NEW_FILE_MODE }]],
    };
  }
  const text = state.decode(slot.bytes);
  if (text === null) return binaryFile(path, op.line);
  const ending = firstEnding(text.lines);
  const last = text.lines.at(-1);
  const separator = last !== undefined && last.ending === '' ? ending : '';
  const appended = joinLines(text.lines) + separator + op.replace.replace(/\r\n|\n|\r/g, ending);
  const bytes = state.encode({ bom: text.bom, lines: splitLines(appended) });
  return updated(path, slot, bytes, [{ chunk: 0, line: text.lines.length + 1, pass: 'exact' }], state);
}

function updated(
  path: string,
  slot: FileSlot,
  bytes: Uint8Array,
  chunks: ChunkReport[],
  state: PlanState,
): OpOutcome {
  const change = describeChange(path, path, slot.bytes, bytes, (b) => state.decode(b));
  return {
    ok: true,
    file: { path, op: 'update', ...change, chunks },
    changes: [[path, { kind: 'file', bytes, mode: slot.mode }]],
  };
}

export function binaryFile(path: string, line: number): OpOutcome {
  const message = `cannot update ${path}: it is not a UTF-8 text file (binary content or a NUL byte)`;
  return { ok: false, errors: [{ code: 'BINARY_FILE', message, path, line }], paths: [path] };
}

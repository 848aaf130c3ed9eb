/**
 * The per-edit str_replace / SEARCH/REPLACE algorithm `planReplaces` replaced, kept as the oracle
 * of its property test: each edit joins the whole file, searches it with `locateText`, splits it
 * again, encodes it and diffs the whole file. Quadratic over many edits, and simple.
 */

import type { EditError, Line, ReplaceText } from '@patchsmith/core';
import { locateText, type TextLocation } from '@patchsmith/fuzzy';
import { alreadyAppliedError, replaceAlreadyApplied } from '../already-applied.js';
import type { LocateSettings } from '../apply-chunks.js';
import { describeChange } from '../diff.js';
import { firstEnding, hasFinalNewline, joinLines, settleEndings, splitLines } from '../lines.js';
import { missError, nearestBudget } from '../miss-error.js';
import { fileRequired, PlanState } from '../state.js';
import type { FileState, PlannedFile } from '../types.js';

/** What the old code made of a list of edits of one file: each edit's record, then the file or the first error. */
export interface OracleResult {
  planned: PlannedFile[];
  bytes: Uint8Array | null;
  error?: EditError & { alreadyApplied: boolean };
}

/** Plans every edit of `path` in turn as the old code did; stops at the first failure. */
export function oracleReplaces(
  ops: readonly ReplaceText[],
  path: string,
  file: FileState,
  firstMatch = false,
): OracleResult {
  const state = new PlanState(new Map([[path, file]]));
  const settings: LocateSettings = { firstMatch, nearest: nearestBudget() };
  const planned: PlannedFile[] = [];
  for (const op of ops) {
    const slot = state.get(path);
    const refused = fileRequired(slot, path, op.line);
    if (refused !== null || slot.kind !== 'file') throw new Error('the oracle takes an existing file');
    const text = state.decode(slot.bytes);
    if (text === null) {
      const message = `cannot update ${path}: it is not a UTF-8 text file (binary content or a NUL byte)`;
      return {
        planned,
        bytes: null,
        error: { code: 'BINARY_FILE', message, path, line: op.line, alreadyApplied: false },
      };
    }
    const fileLines = text.lines.toLines();
    const located = locateText(
      fileLines,
      { search: op.search, replace: op.replace },
      {
        all: op.all,
        firstMatch: settings.firstMatch,
        wholeLines: op.wholeLines,
        nearest: settings.nearest.left > 0,
      },
    );
    if (!located.ok) {
      if (located.code === 'NO_MATCH' && replaceAlreadyApplied(fileLines, op))
        return {
          planned,
          bytes: null,
          error: { ...alreadyAppliedError(path, op.line), alreadyApplied: true },
        };
      const error = missError(located, { path, chunk: 0, line: op.line }, settings.nearest);
      return { planned, bytes: null, error: { ...error, alreadyApplied: false } };
    }
    const lines =
      located.kind === 'substring' ? replaceSubstrings(fileLines, located) : replaceLines(fileLines, located);
    const bytes = state.encode(text.bom, joinLines(lines));
    const change = describeChange(path, path, slot.bytes, bytes, (b) => state.decode(b));
    const line = (located.kind === 'substring' ? located.matches[0]?.line : located.matches[0]?.start) ?? 0;
    const indent = located.kind === 'lines' ? located.matches[0]?.indent : undefined;
    const chunks = [
      { chunk: 0, line: line + 1, pass: located.pass, ...(indent !== undefined && { indent }) },
    ];
    planned.push({ path, op: 'update', ...change, chunks });
    state.set(path, { kind: 'file', bytes, mode: slot.mode });
  }
  const final = state.get(path);
  return { planned, bytes: final.kind === 'file' ? final.bytes : null };
}

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

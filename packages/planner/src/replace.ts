import { type Line, type ReplaceText, textLines, withEnding } from '@patchsmith/core';
import {
  type ChunkMiss,
  type IndexedTextLocation,
  indexLines,
  type LineIndex,
  locateIndexed,
} from '@patchsmith/fuzzy';
import { alreadyAppliedError, replaceAlreadyApplied } from './already-applied.js';
import type { LocateSettings } from './apply-chunks.js';
import { describeChange, describeWindow, type LinesChange } from './diff.js';
import {
  firstEnding,
  hasFinalNewline,
  joinLines,
  type LineSource,
  linesBetween,
  settleEndings,
  splitLines,
} from './lines.js';
import { missError } from './miss-error.js';
import type { OpOutcome } from './outcome.js';
import { StartLineHints } from './start-line-hint.js';
import { type FileSlot, fileRequired, type PlanState, writeRefused } from './state.js';
import type { ChunkReport } from './types.js';

const NEW_FILE_MODE = 0o644;
const encoder = new TextEncoder();

/**
 * Consecutive str_replace edits or SEARCH/REPLACE blocks of one file (non-empty searches): each
 * located with `locateIndexed` in the file as the earlier ones left it, then replaced (every
 * occurrence with `all`). The file is indexed once and edited in place, each edit's diff is that
 * of the lines it touched, and the bytes are written once, at the end: N edits cost about one
 * pass over the file. One outcome per edit planned, in order; the last success carries the file.
 * The list stops after a failure, and after an edit whose result would not read back as it stands
 * (a NUL, a BOM, a lone surrogate, merged line breaks): the caller plans the rest from the bytes.
 */
export function planReplaces(
  ops: readonly ReplaceText[],
  path: string,
  state: PlanState,
  settings: LocateSettings,
): OpOutcome[] {
  const first = ops[0]!;
  const slot = state.get(path);
  const refused = fileRequired(slot, path, first.line);
  if (refused !== null || slot.kind !== 'file') return [{ ok: false, errors: refused ?? [], paths: [path] }];
  const text = state.decode(slot.bytes);
  if (text === null) return [binaryFile(path, first.line)];
  // Told every line the edits search for, the index hashes only the file lines that may be one,
  // and finds every search within a line (and each side of a search's one line break) in one pass.
  const pieces = ops.flatMap((op) => textLines(op.search));
  const index = indexLines(text.lines, pieces, [...ops.map((op) => op.search), ...pieces]);
  const outcomes: OpOutcome[] = [];
  const hints = new StartLineHints();
  let last: (OpOutcome & { ok: true }) | undefined;
  for (const op of ops) {
    const hint = hints.now(op.startLine);
    const located = locateIndexed(
      index,
      { search: op.search, replace: op.replace },
      {
        all: op.all,
        firstMatch: settings.firstMatch,
        wholeLines: op.wholeLines,
        nearest: settings.nearest.left > 0,
        ...(hint !== undefined && { hint }),
      },
    );
    if (!located.ok) {
      outcomes.push(missed(located, op, path, index.lines, settings));
      break;
    }
    const change =
      located.kind === 'substring' ? replaceSpans(index, located) : replaceMatches(index, located);
    hints.record(change);
    const lines = index.lines;
    if (readsBack(op, index, change)) {
      last = {
        ok: true,
        file: { path, op: 'update', ...describeWindow(path, lines, change), chunks: reports(located) },
        changes: [],
      };
      outcomes.push(last);
      continue;
    }
    // The bytes read back otherwise: diffed and planned from them, as every later edit is.
    const before = state.encode(text.bom, joinLines(undone(lines, change)));
    const bytes = state.encodeSpliced(text.bom, index.spliced(), slot.bytes);
    const described = describeChange(path, path, before, bytes, (b) => state.decode(b));
    const file = { path, op: 'update' as const, ...described, chunks: reports(located) };
    outcomes.push({ ok: true, file, changes: [[path, { kind: 'file', bytes, mode: slot.mode }]] });
    return outcomes;
  }
  if (last !== undefined) {
    const bytes = state.encodeSpliced(text.bom, index.spliced(), slot.bytes);
    last.changes.push([path, { kind: 'file', bytes, mode: slot.mode }]);
  }
  return outcomes;
}

/** A failed edit's error: already applied, or the miss with its nearest region. */
function missed(
  located: ChunkMiss,
  op: ReplaceText,
  path: string,
  lines: LineSource,
  settings: LocateSettings,
): OpOutcome {
  if (located.code === 'NO_MATCH' && replaceAlreadyApplied(linesBetween(lines, 0, lines.length), op))
    return { ok: false, errors: [alreadyAppliedError(path, op.line)], paths: [path], alreadyApplied: true };
  const error = missError(located, { path, chunk: 0, line: op.line }, settings.nearest);
  return { ok: false, errors: [error], paths: [path] };
}

/** Lines on each side of an edit's lines split again with them: a line break it leaves at an edge can merge with a neighbour's. */
const MARGIN = 1;

/** The lines as they were before `change`. */
function undone(lines: LineSource, change: LinesChange): Line[] {
  return [
    ...linesBetween(lines, 0, change.at),
    ...change.before,
    ...linesBetween(lines, change.at + change.after, lines.length),
  ];
}

/** The lines from `from` to `to` (exclusive), and `MARGIN` lines on each side, replaced by `make`'s lines. */
function spliceWindow(
  index: LineIndex,
  from: number,
  to: number,
  make: (lines: readonly Line[]) => Line[],
): LinesChange {
  const { lines } = index;
  const at = Math.max(0, from - MARGIN);
  const end = Math.min(lines.length, to + MARGIN);
  const before = linesBetween(lines, at, end);
  const after = make(before);
  index.splice(at, before.length, after);
  return { at, before, after: after.length };
}

/** The exact occurrences replaced literally (no `$&` expansion), and the touched lines split again. */
function replaceSpans(
  index: LineIndex,
  located: Extract<IndexedTextLocation, { kind: 'substring' }>,
): LinesChange {
  const { spans } = located;
  const from = spans[0]!.line;
  return spliceWindow(index, from, spans[spans.length - 1]!.endLine + 1, (window) => {
    const at = Math.max(0, from - MARGIN);
    const starts = new Array<number>(window.length + 1);
    starts[0] = 0;
    window.forEach((l, i) => {
      starts[i + 1] = starts[i]! + l.text.length + l.ending.length;
    });
    const text = joinLines(window);
    let out = '';
    let next = 0;
    for (const span of spans) {
      out += text.slice(next, starts[span.line - at]! + span.column) + located.replacement;
      next = starts[span.endLine - at]! + span.endColumn;
    }
    return splitLines(out + text.slice(next));
  });
}

/** Whole matched lines replaced; lines kept from the file keep their bytes, written ones take the file's first ending. */
function replaceMatches(
  index: LineIndex,
  located: Extract<IndexedTextLocation, { kind: 'lines' }>,
): LinesChange {
  const { lines } = index;
  const ending = firstEnding(lines);
  const finalNewline = hasFinalNewline(lines);
  const { matches } = located;
  const from = matches[0]!.start;
  const last = matches[matches.length - 1]!;
  const atEnd = last.start + last.length + MARGIN >= lines.length;
  return spliceWindow(index, from, last.start + last.length, (window) => {
    const at = Math.max(0, from - MARGIN);
    const out: Line[] = [];
    let next = at;
    for (const match of matches) {
      for (let i = next; i < match.start; i++) out.push(window[i - at]!);
      for (const piece of match.replacement) {
        out.push(piece.from === 'patch' ? { text: piece.text, ending } : window[piece.index - at]!);
      }
      next = match.start + match.length;
    }
    for (let i = next; i < at + window.length; i++) out.push(window[i - at]!);
    // Only a window that reaches the file's end holds its last line.
    return atEnd ? settleEndings(out, ending, finalNewline) : settleEndings(out, ending, true);
  });
}

/** Characters that would not read back from the file's bytes as they stand, or would not stand alone. */
const UNSTABLE = /[\0\uFEFF\uD800-\uDFFF]/;

/**
 * Whether decoding the file's bytes would give back the lines as they now are, judged near the
 * edit: its texts hold nothing that UTF-8 or the decoder would change, no CR ending now runs into
 * an empty LF-ended line (which reads as one CRLF), and an unterminated last line is not empty.
 */
function readsBack(op: ReplaceText, index: LineIndex, change: LinesChange): boolean {
  if (UNSTABLE.test(op.search) || UNSTABLE.test(op.replace)) return false;
  const lines = index.lines;
  const lastLine = lines.at(lines.length - 1);
  if (lastLine !== undefined && lastLine.ending === '' && lastLine.text === '') return false;
  for (let i = Math.max(0, change.at - 1); i < change.at + change.after && i < lines.length - 1; i++) {
    const next = lines.at(i + 1)!;
    if (lines.at(i)!.ending === '\r' && next.text === '' && next.ending === '\n') return false;
  }
  return true;
}

function reports(located: IndexedTextLocation): ChunkReport[] {
  const line = (located.kind === 'substring' ? located.spans[0]?.line : located.matches[0]?.start) ?? 0;
  const indent = located.kind === 'lines' ? located.matches[0]?.indent : undefined;
  return [{ chunk: 0, line: line + 1, pass: located.pass, ...(indent !== undefined && { indent }) }];
}

/** Empty SEARCH: the replace text becomes the file, or is appended (as whole lines, in the file's line breaks). */
export function planCreateOrAppend(op: ReplaceText, path: string, state: PlanState): OpOutcome {
  const slot = state.get(path);
  const refused = writeRefused(slot, path, op.line, state);
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
  const ending = text.lines.firstEnding();
  const separator = text.lines.hasFinalNewline() ? '' : ending;
  const appended = text.lines.text + separator + withEnding(op.replace, ending);
  const bytes = state.encode(text.bom, appended);
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

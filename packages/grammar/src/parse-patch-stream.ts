/**
 * Parses a Codex patch while a model streams it: push text as it arrives and get each operation
 * as soon as it is complete (the next file header or `*** End Patch` has arrived), plus progress
 * for the operation in flight. `end()` gives what `parsePatch` gives for the whole text, and the
 * operations emitted along the way are exactly its operations, whatever the pieces were.
 */
import type { EditScript, Operation, Result } from '@patchsmith/core';
import { inFolder } from './in-folder.js';
import { parsePatch } from './parse-patch.js';
import { heredocFolder } from './unwrap.js';

export type PatchStreamEvent =
  | { type: 'operation'; operation: Operation }
  | {
      type: 'progress';
      /** The operation in flight, as its header says. */
      kind: 'add' | 'delete' | 'update';
      path: string;
      /** Lines read after its header so far. */
      lines: number;
    };

export interface PatchStream {
  /** Feeds the next piece of text; returns what became known. */
  push(piece: string): PatchStreamEvent[];
  /** Ends the text: the last operation if it completed only now, and the whole text's result, as `parsePatch` gives it. */
  end(): { events: PatchStreamEvent[]; result: Result<EditScript> };
}

/** A file header, maybe padded: where one operation ends and the next begins. */
const FILE_HEADER = /^[ \t]*\*\*\* (Add|Delete|Update) File:(.*)$/;
/** What an Update's lines hold before its first chunk: blank lines and a `*** Move to:`. */
const BEFORE_CHUNKS = /^[ \t]*(?:\*\*\* Move to:.*)?\r?$/;
/** `*** End Patch`, recognised after trimming anywhere. */
const END_PATCH = /^[ \t]*\*\*\* End Patch[ \t]*\r?$/;
const BEGIN_PATCH = /^[ \t]*\*\*\* Begin Patch[ \t]*\r?$/;
const KINDS = { Add: 'add', Delete: 'delete', Update: 'update' } as const;

export function parsePatchStream(): PatchStream {
  let text = '';
  /** Complete lines read so far. */
  let lineCount = 0;
  let pending = '';
  let begun = false;
  let ended = false;
  /** The folder a `cd DIR && apply_patch <<EOF` line before the patch changed to. */
  let folder: string | undefined;
  const inSegmentFolder = (parsed: Result<EditScript>): Result<EditScript> =>
    parsed.ok && folder !== undefined ? inFolder(parsed.value, folder, 1) : parsed;
  /** The operation in flight: its 1-based first line and its lines. */
  let current: {
    line: number;
    lines: string[];
    kind: 'add' | 'delete' | 'update';
    path: string;
    /** A chunk line was read: from here a line starting with a space is context, even if it reads as a header. */
    inChunk: boolean;
  } | null = null;

  /** Parses one operation's lines alone, with line numbers of the whole text. */
  const complete = (events: PatchStreamEvent[]) => {
    if (current === null) return;
    const segment = `*** Begin Patch\n${current.lines.join('\n')}\n*** End Patch\n`;
    const parsed = inSegmentFolder(parsePatch(segment));
    // A broken segment is reported by end(), which parses the whole text.
    if (parsed.ok) {
      const shift = current.line - 2;
      for (const operation of parsed.value.operations) {
        shiftLines(operation, shift);
        events.push({ type: 'operation', operation });
      }
    }
    current = null;
  };

  const readLine = (raw: string, events: PatchStreamEvent[]) => {
    lineCount++;
    if (ended) return;
    if (!begun) {
      folder ??= heredocFolder(raw);
      begun = BEGIN_PATCH.test(raw);
      // A bare sequence of operations, without `*** Begin Patch`, begins at its first header.
      if (!begun && FILE_HEADER.test(raw)) begun = true;
      else return;
    }
    if (END_PATCH.test(raw)) {
      complete(events);
      ended = true;
      return;
    }
    const header = FILE_HEADER.exec(raw.replace(/\r$/, ''));
    if (header !== null && !(current?.inChunk && raw.startsWith(' '))) {
      complete(events);
      const kind = KINDS[header[1] as keyof typeof KINDS];
      current = { line: lineCount, lines: [raw], kind, path: header[2]!.trim(), inChunk: false };
    } else if (current !== null) {
      current.lines.push(raw);
      if (current.kind === 'update' && !BEFORE_CHUNKS.test(raw)) current.inChunk = true;
    }
    if (current !== null) {
      events.push({
        type: 'progress',
        kind: current.kind,
        path: current.path,
        lines: current.lines.length - 1,
      });
    }
  };

  return {
    push(piece) {
      text += piece;
      pending += piece;
      const events: PatchStreamEvent[] = [];
      let start = 0;
      for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
        readLine(pending.slice(start, nl), events);
        start = nl + 1;
      }
      pending = pending.slice(start);
      return events;
    },
    end() {
      const events: PatchStreamEvent[] = [];
      if (pending !== '') readLine(pending, events);
      pending = '';
      return { events: events.filter((e) => e.type === 'operation'), result: parsePatch(text) };
    },
  };
}

function shiftLines(operation: Operation, shift: number): void {
  operation.line += shift;
  if (operation.kind !== 'update') return;
  for (const chunk of operation.chunks) {
    chunk.line += shift;
    for (const anchor of chunk.anchors) anchor.line += shift;
    for (const line of chunk.lines) line.line += shift;
  }
}

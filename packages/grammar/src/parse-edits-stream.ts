/**
 * Parses edits in any format while a model streams them: push text as it arrives; the stream
 * says which format it reads (given, or detected at the first line that decides it) and yields
 * each operation once it is complete, with progress counts. `end()` gives exactly what
 * `parseEdits` gives for the whole text; operations yielded along the way are its operations.
 *
 * Codex patches go through `parsePatchStream`. The other formats re-parse what has arrived up to
 * the line that completes a unit (a SEARCH/REPLACE block's REPLACE marker, a whole-file block's
 * closing fence, the header of a unified diff's next file once the hunks before it are complete),
 * closing the wrappers it opened with as the whole text will. JSON (str_replace) and text whose
 * format only the whole text decides (whole-file under `auto`, undecided Codex) yield at the end.
 */
import type { EditScript, Operation, PatchFormat, Result } from '@patchsmith/core';
import { formatAtLine } from './detect-format.js';
import { isFenceLine } from './fences.js';
import { type InputFormat, parseEdits } from './parse-edits.js';
import { type PatchStream, type PatchStreamEvent, parsePatchStream } from './parse-patch-stream.js';
import { unifiedUnitEnds } from './unified-stream-units.js';
import { wrapperClosers } from './unwrap.js';

export type EditStreamEvent =
  /** The format the stream reads the text as; `detected`: chosen by `auto`, not given. */
  | { type: 'format'; format: PatchFormat; detected: boolean }
  | { type: 'operation'; operation: Operation }
  | {
      type: 'progress';
      /** Complete lines read so far, and operations yielded so far. */
      lines: number;
      operations: number;
      /** The Codex operation in flight, as its header says. */
      current?: { kind: 'add' | 'delete' | 'update'; path: string; lines: number };
    };

export interface EditStream {
  /** Feeds the next piece of text; returns what became known. */
  push(piece: string): EditStreamEvent[];
  /** Ends the text: what completed only now, and the whole text's result, as `parseEdits` gives it. */
  end(): { events: EditStreamEvent[]; result: Result<EditScript> };
}

/** A SEARCH/REPLACE block's last line. */
const REPLACE_MARKER = /^[ \t]*(?:>{5,9}|\+{3,})[ \t]*REPLACE<?[ \t]*$/;

export function parseEditsStream(format: InputFormat = 'auto'): EditStream {
  let text = '';
  /** Offset just past the last complete line, and how many complete lines there are. */
  let complete = 0;
  let lines = 0;
  let previous: string | null = null;
  let chosen: PatchFormat | null = format === 'auto' ? null : format;
  /** Whether the text is JSON (str_replace), as its first visible character says; null before one arrived. */
  let json: boolean | null = null;
  let codex: PatchStream | null = format === 'codex' ? parsePatchStream() : null;
  let yielded = 0;
  const units = unifiedUnitEnds();

  const emit = (operation: Operation, events: EditStreamEvent[]) => {
    yielded++;
    events.push({ type: 'operation', operation });
  };

  /** Passes the Codex stream's operations on; returns its last progress. */
  const fromCodex = (codexEvents: PatchStreamEvent[], events: EditStreamEvent[]) => {
    let last: PatchStreamEvent | undefined;
    for (const e of codexEvents) {
      if (e.type === 'operation') emit(e.operation, events);
      else last = e;
    }
    return last;
  };

  /** Yields the operations of the text up to `end` not yielded yet, when that prefix parses. */
  const yieldPrefix = (end: number, events: EditStreamEvent[]) => {
    const prefix = text.slice(0, end);
    const closed = chosen === 'whole-file' ? prefix : `${prefix}${wrapperClosers(prefix)}`;
    const parsed = parseEdits(closed, chosen!);
    if (!parsed.ok) return;
    for (const operation of parsed.value.operations.slice(yielded)) emit(operation, events);
  };

  /** Where the unit the line completes ends, for the formats parsed by prefix; null when it completes none. */
  const unitEnd = (line: string, start: number, end: number): number | null => {
    if (chosen === 'search-replace') return REPLACE_MARKER.test(line) ? end : null;
    if (chosen === 'whole-file') return isFenceLine(line) ? end : null;
    if (chosen === 'unified') return units.next(line, start);
    return null;
  };

  /** Reads the lines of `text` between `from` and `to` as units of the chosen format. */
  const readUnits = (from: number, to: number, events: EditStreamEvent[]) => {
    let at = from;
    for (let nl = text.indexOf('\n', at); nl !== -1 && nl < to; nl = text.indexOf('\n', at)) {
      const end = unitEnd(withoutCr(text.slice(at, nl)), at, nl + 1);
      if (end !== null) yieldPrefix(end, events);
      at = nl + 1;
    }
  };

  /**
   * Decides the format at the line just completed, if it does, and reads the lines so far in it;
   * returns the Codex stream's progress.
   */
  const detect = (line: string, events: EditStreamEvent[]): PatchStreamEvent | undefined => {
    json ??= /\S/.test(line) ? /^\s*[[{]/.test(line) : null;
    if (json !== false) return undefined;
    chosen = formatAtLine(previous, line);
    if (chosen === null) return undefined;
    events.push({ type: 'format', format: chosen, detected: true });
    if (chosen !== 'codex') {
      readUnits(0, complete, events);
      return undefined;
    }
    codex = parsePatchStream();
    return fromCodex(codex.push(text.slice(0, complete)), events);
  };

  /** Reads one complete line, which starts at `start` (`complete` is already past it); returns the Codex stream's progress. */
  const readLine = (start: number, events: EditStreamEvent[]): PatchStreamEvent | undefined => {
    const raw = text.slice(start, complete - 1);
    const line = withoutCr(lines === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw);
    let progress: PatchStreamEvent | undefined;
    if (chosen === null) progress = detect(line, events);
    else if (codex !== null)
      progress = fromCodex((codex as PatchStream).push(text.slice(start, complete)), events);
    else {
      const end = unitEnd(line, start, complete);
      if (end !== null) yieldPrefix(end, events);
    }
    previous = line;
    return progress;
  };

  return {
    push(piece) {
      const events: EditStreamEvent[] = [];
      if (format !== 'auto' && text === '' && piece !== '')
        events.push({ type: 'format', format, detected: false });
      const before = lines;
      text += piece;
      let current: PatchStreamEvent | undefined;
      for (let nl = text.indexOf('\n', complete); nl !== -1; nl = text.indexOf('\n', complete)) {
        const start = complete;
        complete = nl + 1;
        lines++;
        current = readLine(start, events) ?? current;
      }
      if (lines > before) {
        events.push({
          type: 'progress',
          lines,
          operations: yielded,
          ...(current !== undefined &&
            current.type === 'progress' && {
              current: { kind: current.kind, path: current.path, lines: current.lines },
            }),
        });
      }
      return events;
    },
    end() {
      const events: EditStreamEvent[] = [];
      const result = parseEdits(text, format);
      if (chosen === null && result.ok)
        events.push({ type: 'format', format: result.value.format, detected: true });
      // The whole text decides: what a unit's prefix could not show (the last one) comes now.
      if (result.ok) for (const operation of result.value.operations.slice(yielded)) emit(operation, events);
      return { events, result };
    },
  };
}

function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

import { PARTIAL_MIN_LINES, type TextSet, textSet } from './fingerprint.js';
import { type LineKey, normalizeLine } from './normalize.js';
import { buildSubstringTable, occurrencesInLines, type SubstringTable } from './substring-table.js';
import type { SubstringSpan, TextLine } from './types.js';

/**
 * A file's lines, edited in place, with an index from each line's text (exact, or normalised for
 * passes 2–5 of SPEC §2) to where it stands. Edits are splices; the index is not rebuilt per
 * splice but keeps a log of them, through which a stored position is carried to where its line
 * stands now. Past `MAX_LOG` splices it is rebuilt, so N edits of a file cost about one indexing
 * pass per normalisation used, plus the lines they touch.
 */
export interface LineIndex {
  /** The current lines (do not modify: use `splice`). */
  readonly lines: readonly TextLine[];
  /** Sorted current positions of the lines whose text, normalised by `key` (default exact), is `text`. */
  positionsOf(text: string, key?: LineKey): number[];
  /** About how many lines have the text (removed ones may count), counting no further than `atMost`. */
  countOf(text: string, atMost: number, key?: LineKey): number;
  /** Every occurrence (overlapping ones included) of a text without a line break, in order. */
  substringsOf(text: string): SubstringSpan[];
  /** Replaces `removed` lines from `at` by `inserted`. */
  splice(at: number, removed: number, inserted: readonly TextLine[]): void;
}

/** Splices logged before the index is rebuilt (a lookup maps each position through the log). */
const MAX_LOG = 1_024;

/** A line inserted by a splice: its position then, and how many splices were logged by then. */
interface Entry {
  position: number;
  since: number;
}

interface Splice {
  at: number;
  removed: number;
  inserted: number;
}

/**
 * One normalisation's index: the lines present when it was built chained by position (each text
 * to its first line, each line to the next with its text), and the lines inserted since.
 */
interface KeyTable {
  heads: Map<string, number>;
  next: Int32Array;
  /** Splices logged when it was built: its chained positions are carried from there. */
  since: number;
  inserted: Map<string, Entry[]>;
  /** The only normalised texts it chained (null: every text); a lookup of another text rebuilds it in full. */
  covers: TextSet | null;
}

/**
 * Indexes a copy of `lines`. `expected`, when given, are the raw texts lookups will mostly ask
 * about (every line of every search of a run of edits): then a table chains only the lines that
 * can equal one of them, not the whole file; a lookup of any other text builds the full table.
 * `substrings` are the texts without a line break `substringsOf` will be asked for: all of them
 * are found in one pass over the file, on the first such lookup; other texts are scanned for.
 */
export function indexLines(
  lines: readonly TextLine[],
  expected?: readonly string[],
  substrings: readonly string[] = [],
): LineIndex {
  const current = lines.slice();
  const partial = expected !== undefined && lines.length >= PARTIAL_MIN_LINES;
  let tables = new Map<LineKey, KeyTable>();
  let log: Splice[] = [];
  /** Stamped with the splices logged when each line was scanned; lines inserted later are added. */
  let found: SubstringTable | null = null;
  const build = (key: LineKey, covers: TextSet | null): KeyTable => {
    const heads = new Map<string, number>();
    const next = new Int32Array(current.length);
    for (let i = current.length - 1; i >= 0; i--) {
      const text = normalizeLine(current[i]!.text, key);
      if (covers !== null && !covers.has(text)) continue;
      next[i] = heads.get(text) ?? -1;
      heads.set(text, i);
    }
    const table = { heads, next, since: log.length, inserted: new Map(), covers };
    tables.set(key, table);
    return table;
  };
  /** The table of `key` that knows every line with `text`. */
  const tableFor = (key: LineKey, text: string): KeyTable => {
    const table = tables.get(key);
    if (table !== undefined && (table.covers === null || table.covers.texts.has(text))) return table;
    if (table === undefined && partial) {
      const built = build(key, textSet(expected.map((e) => normalizeLine(e, key))));
      if (built.covers!.texts.has(text)) return built;
    }
    return build(key, null);
  };
  /** Where the line indexed at `position` after `since` splices stands now (-1: removed). */
  const now = (position: number, since: number): number => carried(position, since, log);
  return {
    lines: current,
    positionsOf(text, key = 'exact') {
      const table = tableFor(key, text);
      const found: number[] = [];
      for (let i = table.heads.get(text) ?? -1; i !== -1; i = table.next[i]!) {
        const position = now(i, table.since);
        if (position !== -1) found.push(position);
      }
      for (const entry of table.inserted.get(text) ?? []) {
        const position = now(entry.position, entry.since);
        if (position !== -1) found.push(position);
      }
      return found.sort((a, b) => a - b);
    },
    countOf(text, atMost, key = 'exact') {
      const table = tableFor(key, text);
      let count = 0;
      for (let i = table.heads.get(text) ?? -1; i !== -1 && count < atMost; i = table.next[i]!) count++;
      return count + (table.inserted.get(text)?.length ?? 0);
    },
    substringsOf(text) {
      found ??= buildSubstringTable(current, substrings, log.length);
      if (!found.covers(text)) return occurrencesInLines(current, text);
      const spans: SubstringSpan[] = [];
      const starts = found.candidates(text);
      for (let k = 0; k < starts.length; k += 3) {
        const line = now(starts[k]!, starts[k + 2]!);
        const column = starts[k + 1]!;
        // A line still there is the line scanned (an edited line is removed and inserted anew).
        if (line !== -1 && current[line]!.text.startsWith(text, column))
          spans.push({ line, column, endLine: line, endColumn: column + text.length });
      }
      return spans.sort((a, b) => a.line - b.line || a.column - b.column);
    },
    splice(at, removed, added) {
      spliceLines(current, at, removed, added);
      if (log.length >= MAX_LOG) {
        tables = new Map();
        log = [];
        found = null;
        return;
      }
      log.push({ at, removed, inserted: added.length });
      for (let k = 0; k < added.length; k++) found?.addLine(added[k]!.text, at + k, log.length);
      for (const [key, table] of tables) {
        added.forEach((line, k) => {
          const text = normalizeLine(line.text, key);
          const entry = { position: at + k, since: log.length };
          const list = table.inserted.get(text);
          if (list) list.push(entry);
          else table.inserted.set(text, [entry]);
        });
      }
    },
  };
}

/** Spreading a huge insertion into `splice`'s arguments would overflow the stack. */
const MAX_SPREAD = 10_000;

function spliceLines(lines: TextLine[], at: number, removed: number, inserted: readonly TextLine[]): void {
  if (inserted.length <= MAX_SPREAD) {
    lines.splice(at, removed, ...inserted);
    return;
  }
  const tail = lines.splice(at).slice(removed);
  for (const line of inserted) lines.push(line);
  for (const line of tail) lines.push(line);
}

/** Where a line stands after the splices logged since it was indexed; -1 once removed. */
function carried(indexed: number, since: number, log: readonly Splice[]): number {
  let position = indexed;
  for (let k = since; k < log.length; k++) {
    const { at, removed, inserted } = log[k]!;
    if (position < at) continue;
    if (position < at + removed) return -1;
    position += inserted - removed;
  }
  return position;
}

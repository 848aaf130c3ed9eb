import { LineModel, SplicedText } from '@patchsmith/core';
import { PARTIAL_MIN_LINES, type TextSet, textSet } from './fingerprint.js';
import { type LineKey, normalizeLine, trimmedEnd, trimmedStart } from './normalize.js';
import { buildSubstringTable, occurrencesInLines, type SubstringTable } from './substring-table.js';
import type { LineList, SubstringSpan, TextLine, TextLines } from './types.js';

/**
 * A file's lines, edited in place, with an index from each line's text (exact, or normalised for
 * passes 2–5 of SPEC §2) to where it stands. The lines are the file's `LineModel` and the lines
 * edits put in: each current line is a number, a line of the model (read from its text when
 * asked for) or an inserted one, so a 100,000-line file is one array of small integers, not
 * 100,000 line objects. Edits are splices; the index is not rebuilt per splice but keeps a log of
 * them, through which a stored position is carried to where its line stands now. Past `MAX_LOG`
 * splices it is rebuilt, so N edits of a file cost about one indexing pass per normalisation
 * used, plus the lines they touch.
 */
export interface LineIndex {
  /** The current lines (do not modify: use `splice`). */
  readonly lines: TextLines;
  /** The current lines' texts (no endings). */
  readonly texts: LineList;
  /** The current lines joined with their endings: the file's text now. */
  joined(): string;
  /** The same text, not yet joined: its bytes can be copied from the file's where it kept them. */
  spliced(): SplicedText;
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

/**
 * Below this many texts to find within lines, each is scanned for with the engine's `indexOf`:
 * measured on a 2,000-line file, one text costs 0.3 ms scanned against 2.4 ms for the table's
 * hashing pass, and the two meet at about 8 texts.
 */
const MIN_TABLE_TEXTS = 8;

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

/** Spreading a huge insertion into `splice`'s arguments would overflow the stack. */
const MAX_SPREAD = 10_000;

/**
 * The current lines: `order[i]` is line i, a line of `base` (>= 0) or `added[-1 - n]` (< 0).
 * Runs of base lines in order are written as one slice of the base text.
 */
class Lines implements TextLines {
  private order: number[];
  private readonly added: TextLine[] = [];

  constructor(readonly base: LineModel) {
    this.order = new Array<number>(base.length);
    for (let i = 0; i < base.length; i++) this.order[i] = i;
    const lines = this;
    this.texts = {
      get length() {
        return lines.length;
      },
      at: (i) => (i < 0 || i >= lines.length ? undefined : lines.textAt(i)),
    };
  }

  get length(): number {
    return this.order.length;
  }

  /** The lines' texts, as a `LineList`. */
  readonly texts: LineList;

  /** The base line current line `i` is, or -1 for an inserted one. */
  baseLine(i: number): number {
    return this.order[i]!;
  }

  textAt(i: number): string {
    const n = this.order[i]!;
    return n >= 0 ? this.base.at(n)! : this.added[-1 - n]!.text;
  }

  at(i: number): TextLine | undefined {
    if (i < 0 || i >= this.order.length) return undefined;
    const n = this.order[i]!;
    return n >= 0 ? { text: this.base.at(n)!, ending: this.base.ending(n) } : this.added[-1 - n];
  }

  /** Whether the lines are still the base's, in order: no splice has been made. */
  unspliced(): boolean {
    return !this.spliceMade;
  }

  private spliceMade = false;

  splice(at: number, removed: number, inserted: readonly TextLine[]): void {
    this.spliceMade = true;
    const ids = inserted.map((line) => -1 - (this.added.push(line) - 1));
    if (ids.length <= MAX_SPREAD) {
      this.order.splice(at, removed, ...ids);
      return;
    }
    const tail = this.order.slice(at + removed);
    this.order.length = at;
    for (const id of ids) this.order.push(id);
    for (const id of tail) this.order.push(id);
  }

  joined(): string {
    return this.spliced().text();
  }

  /** The current text as ranges of the base text and inserted lines, each run of base lines one range. */
  spliced(): SplicedText {
    const { order, base } = this;
    const content = new SplicedText(base.text);
    for (let i = 0; i < order.length; ) {
      const n = order[i]!;
      if (n < 0) {
        const line = this.added[-1 - n]!;
        content.add(line.text + line.ending);
        i++;
        continue;
      }
      let end = i + 1;
      while (end < order.length && order[end] === order[end - 1]! + 1) end++;
      content.keep(base.starts[n]!, base.starts[n + end - i]!);
      i = end;
    }
    return content;
  }
}

/**
 * Indexes `lines` (a file's model, or lines given one by one). `expected`, when given, are the raw
 * texts lookups will mostly ask about (every line of every search of a run of edits): then a
 * table chains only the lines that can equal one of them, not the whole file; a lookup of any
 * other text builds the full table. `substrings` are the texts without a line break
 * `substringsOf` will be asked for: all of them are found in one pass over the file, on the
 * first such lookup; other texts are scanned for.
 */
export function indexLines(
  lines: LineModel | readonly TextLine[],
  expected?: readonly string[],
  substrings: readonly string[] = [],
): LineIndex {
  const current = new Lines(lines instanceof LineModel ? lines : LineModel.of(joinTextLines(lines)));
  const partial = expected !== undefined && current.length >= PARTIAL_MIN_LINES;
  let tables = new Map<LineKey, KeyTable>();
  let log: Splice[] = [];
  /** Stamped with the splices logged when each line was scanned; lines inserted later are added. */
  let found: SubstringTable | null = null;
  const fewSubstrings = new Set(substrings).size < MIN_TABLE_TEXTS;
  const build = (key: LineKey, covers: TextSet | null): KeyTable => {
    const heads = new Map<string, number>();
    const next = new Int32Array(current.length);
    const chain = (i: number, text: string) => {
      next[i] = heads.get(text) ?? -1;
      heads.set(text, i);
    };
    if (covers !== null && key !== 'lookalike' && current.unspliced()) {
      // Still the file's own lines: scanned on its text in one pass, chained first to last.
      const tails = new Map<string, number>();
      covers.scanLines(current.base, key, (i, text) => {
        next[i] = -1;
        const tail = tails.get(text);
        if (tail === undefined) heads.set(text, i);
        else next[tail] = i;
        tails.set(text, i);
      });
    } else {
      for (let i = current.length - 1; i >= 0; i--) {
        const text = coveredText(current, i, key, covers);
        if (text !== null) chain(i, text);
      }
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
    texts: current.texts,
    joined: () => current.joined(),
    spliced: () => current.spliced(),
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
      if (fewSubstrings) return occurrencesInLines(current.texts, text);
      found ??= buildSubstringTable(current.texts, substrings, log.length);
      if (!found.covers(text)) return occurrencesInLines(current.texts, text);
      const spans: SubstringSpan[] = [];
      const starts = found.candidates(text);
      for (let k = 0; k < starts.length; k += 3) {
        const line = now(starts[k]!, starts[k + 2]!);
        const column = starts[k + 1]!;
        // A line still there is the line scanned (an edited line is removed and inserted anew).
        if (line !== -1 && current.textAt(line).startsWith(text, column))
          spans.push({ line, column, endLine: line, endColumn: column + text.length });
      }
      return spans.sort((a, b) => a.line - b.line || a.column - b.column);
    },
    splice(at, removed, added) {
      current.splice(at, removed, added);
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

/** Lines given one by one, joined into the text their model splits again. */
function joinTextLines(lines: readonly TextLine[]): string {
  return lines.map((line) => line.text + line.ending).join('');
}

/**
 * Line i's text normalised by `key` when `covers` has it (or covers every text), else null. A line
 * of the file's model is ruled out on the model's text itself where it can be (its normalised
 * span's fingerprint), so only candidates are sliced into strings.
 */
function coveredText(lines: Lines, i: number, key: LineKey, covers: TextSet | null): string | null {
  const n = lines.baseLine(i);
  if (covers !== null && n >= 0 && key !== 'lookalike') {
    const { text, starts } = lines.base;
    let from = starts[n]!;
    let to = lines.base.textEnd(n);
    if (key !== 'exact') to = trimmedEnd(text, from, to);
    if (key === 'trimmed') from = trimmedStart(text, from, to);
    return covers.sliceIfHas(text, from, to);
  }
  const normalized = normalizeLine(lines.textAt(i), key);
  return covers === null || covers.has(normalized) ? normalized : null;
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

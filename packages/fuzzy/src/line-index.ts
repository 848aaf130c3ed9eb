import type { TextLine } from './types.js';

/**
 * A file's lines, edited in place, with an index from each line's exact text to where it stands.
 * Edits are splices; the index is not rebuilt per splice but keeps a log of them, through which a
 * stored position is carried to where its line stands now. Past `MAX_LOG` splices it is rebuilt,
 * so N edits of a file cost about one indexing pass plus the lines they touch.
 */
export interface LineIndex {
  /** The current lines (do not modify: use `splice`). */
  readonly lines: readonly TextLine[];
  /** Sorted current positions of the lines whose text is exactly `text`. */
  positionsOf(text: string): number[];
  /** About how many lines have the text (removed ones may count), counting no further than `atMost`. */
  countOf(text: string, atMost: number): number;
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
 * Indexes a copy of `lines`. The lines indexed at once are chained by position (each text to its
 * first line, each line to the next with its text), so indexing allocates nothing per line.
 */
export function indexLines(lines: readonly TextLine[]): LineIndex {
  const current = lines.slice();
  let heads = new Map<string, number>();
  let next = new Int32Array(0);
  let inserted = new Map<string, Entry[]>();
  let log: Splice[] = [];
  const rebuild = (): void => {
    heads = new Map();
    next = new Int32Array(current.length);
    inserted = new Map();
    log = [];
    for (let i = current.length - 1; i >= 0; i--) {
      const text = current[i]!.text;
      next[i] = heads.get(text) ?? -1;
      heads.set(text, i);
    }
  };
  rebuild();
  /** Where the line indexed at `position` after `since` splices stands now (-1: removed). */
  const now = (position: number, since: number): number => carried(position, since, log);
  return {
    lines: current,
    positionsOf(text) {
      const found: number[] = [];
      for (let i = heads.get(text) ?? -1; i !== -1; i = next[i]!) {
        const position = now(i, 0);
        if (position !== -1) found.push(position);
      }
      for (const entry of inserted.get(text) ?? []) {
        const position = now(entry.position, entry.since);
        if (position !== -1) found.push(position);
      }
      return found.sort((a, b) => a - b);
    },
    countOf(text, atMost) {
      let count = 0;
      for (let i = heads.get(text) ?? -1; i !== -1 && count < atMost; i = next[i]!) count++;
      return count + (inserted.get(text)?.length ?? 0);
    },
    splice(at, removed, added) {
      spliceLines(current, at, removed, added);
      if (log.length >= MAX_LOG) {
        rebuild();
        return;
      }
      log.push({ at, removed, inserted: added.length });
      added.forEach((line, k) => {
        const entry = { position: at + k, since: log.length };
        const list = inserted.get(line.text);
        if (list) list.push(entry);
        else inserted.set(line.text, [entry]);
      });
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

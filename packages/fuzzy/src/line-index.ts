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
  /** Replaces `removed` lines from `at` by `inserted`. */
  splice(at: number, removed: number, inserted: readonly TextLine[]): void;
}

/** Splices logged before the index is rebuilt (a lookup maps each position through the log). */
const MAX_LOG = 256;

/** A line's position when indexed, and how many logged splices had already happened then. */
interface Entry {
  position: number;
  since: number;
}

interface Splice {
  at: number;
  removed: number;
  inserted: number;
}

/** Indexes a copy of `lines`. */
export function indexLines(lines: readonly TextLine[]): LineIndex {
  const current = lines.slice();
  let entries = new Map<string, Entry[]>();
  let log: Splice[] = [];
  const add = (text: string, entry: Entry): void => {
    const list = entries.get(text);
    if (list) list.push(entry);
    else entries.set(text, [entry]);
  };
  const rebuild = (): void => {
    entries = new Map();
    log = [];
    for (let i = 0; i < current.length; i++) add(current[i]!.text, { position: i, since: 0 });
  };
  rebuild();
  return {
    lines: current,
    positionsOf(text) {
      const found: number[] = [];
      for (const entry of entries.get(text) ?? []) {
        const position = carried(entry, log);
        // A line whose entry outlived it (removed, then the position reused) is checked by text.
        if (position !== -1 && current[position]?.text === text) found.push(position);
      }
      return found.sort((a, b) => a - b);
    },
    splice(at, removed, inserted) {
      spliceLines(current, at, removed, inserted);
      if (log.length >= MAX_LOG) {
        rebuild();
        return;
      }
      log.push({ at, removed, inserted: inserted.length });
      inserted.forEach((line, k) => add(line.text, { position: at + k, since: log.length }));
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

/** Where an indexed line stands after the splices logged since it was indexed; -1 once removed. */
function carried(entry: Entry, log: readonly Splice[]): number {
  let position = entry.position;
  for (let k = entry.since; k < log.length; k++) {
    const { at, removed, inserted } = log[k]!;
    if (position < at) continue;
    if (position < at + removed) return -1;
    position += inserted - removed;
  }
  return position;
}

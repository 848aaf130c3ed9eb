import type { LineList, SubstringSpan } from './types.js';

/**
 * Where texts without a line break occur in a file's lines, for many texts in one pass: a few
 * windows of `ANCHOR_WIDTH` characters of each text are its anchors, and one rolling hash over
 * every line finds where any anchor stands. A text's occurrences are then among those of its
 * rarest anchor, checked one by one. Searching the file once per text would cost texts x file.
 */
export interface SubstringTable {
  /** The texts it answers for (others are scanned for). */
  covers(text: string): boolean;
  /**
   * Where `text` may start: line, column and stamp triples, in the order they were found. The
   * stamp is the caller's, given when the line was scanned (`buildSubstringTable`, `addLine`).
   */
  candidates(text: string): readonly number[];
  /** Scans a line inserted since, at position `line`, stamped `stamp`. */
  addLine(text: string, line: number, stamp: number): void;
}

/** Characters of an anchor; shorter texts are scanned for. */
export const ANCHOR_WIDTH = 8;

/** Windows of a text indexed; it is found by whichever stands in the fewest places. */
const ANCHORS_PER_TEXT = 4;

/** Multiplier of the rolling hash. */
const BASE = 0x01000193;

/** BASE to the power ANCHOR_WIDTH - 1, modulo 2^32. */
const TOP = (() => {
  let p = 1;
  for (let k = 1; k < ANCHOR_WIDTH; k++) p = Math.imul(p, BASE);
  return p;
})();

/** Filter slots (a power of two) of the anchors' hashes. */
const FILTER_SIZE = 1 << 16;

/** The rolling hash of `text`'s window of `ANCHOR_WIDTH` characters at `at`. */
function windowHash(text: string, at: number): number {
  let h = 0;
  for (let k = 0; k < ANCHOR_WIDTH; k++) h = (Math.imul(h, BASE) + text.charCodeAt(at + k)) | 0;
  return h;
}

/**
 * Where a text's anchor candidates start: windows spread over it, its first and its last
 * included (a line's indentation or a common prefix stands almost everywhere, its end seldom).
 */
function anchorOffsets(text: string): number[] {
  const last = text.length - ANCHOR_WIDTH;
  const offsets = new Set<number>();
  for (let k = 0; k < ANCHORS_PER_TEXT; k++) offsets.add(Math.round((last * k) / (ANCHORS_PER_TEXT - 1)));
  return [...offsets];
}

/** Builds the table of `texts` (those long enough and without a line break) over `lines`, stamped `stamp`. */
export function buildSubstringTable(lines: LineList, texts: Iterable<string>, stamp = 0): SubstringTable {
  /** Text -> the offsets of its anchors, then (once the file is scanned) of the one it is found by. */
  const offsets = new Map<string, number[]>();
  /** Anchor text -> where it stands: line, column, stamp triples. */
  const hits = new Map<string, number[]>();
  /** Anchor hash -> anchor texts. */
  const byHash = new Map<number, string[]>();
  const filter = new Uint8Array(FILTER_SIZE);
  for (const text of texts) {
    if (text.length < ANCHOR_WIDTH || /[\r\n]/.test(text) || offsets.has(text)) continue;
    const at = anchorOffsets(text);
    offsets.set(text, at);
    for (const offset of at) {
      const anchor = text.slice(offset, offset + ANCHOR_WIDTH);
      if (hits.has(anchor)) continue;
      hits.set(anchor, []);
      const h = windowHash(anchor, 0);
      filter[h & (FILTER_SIZE - 1)] = 1;
      const same = byHash.get(h);
      if (same) same.push(anchor);
      else byHash.set(h, [anchor]);
    }
  }
  const scanLine = (text: string, line: number, stamp: number) => {
    if (offsets.size > 0)
      scanText(text, filter, byHash, (anchor, at) => hits.get(anchor)!.push(line, at, stamp));
  };
  for (let i = 0; i < lines.length; i++) scanLine(lines.at(i)!, i, stamp);
  const anchorAt = (text: string, offset: number) => text.slice(offset, offset + ANCHOR_WIDTH);
  for (const [text, at] of offsets) {
    const rarest = at.reduce((best, o) =>
      hits.get(anchorAt(text, o))!.length < hits.get(anchorAt(text, best))!.length ? o : best,
    );
    offsets.set(text, [rarest]);
  }
  return {
    covers: (text) => offsets.has(text),
    candidates(text) {
      const offset = offsets.get(text)?.[0];
      if (offset === undefined) return [];
      const found = hits.get(anchorAt(text, offset))!;
      const starts: number[] = [];
      for (let k = 0; k < found.length; k += 3) {
        const column = found[k + 1]! - offset;
        if (column >= 0) starts.push(found[k]!, column, found[k + 2]!);
      }
      return starts;
    },
    addLine: scanLine,
  };
}

/** One rolling hash over a line's text: each place an anchor stands, in order. */
function scanText(
  text: string,
  filter: Uint8Array,
  byHash: ReadonlyMap<number, readonly string[]>,
  found: (anchor: string, at: number) => void,
): void {
  if (text.length < ANCHOR_WIDTH) return;
  let h = windowHash(text, 0);
  for (let at = 0; ; at++) {
    if (filter[h & (FILTER_SIZE - 1)] === 1) {
      for (const anchor of byHash.get(h) ?? []) if (text.startsWith(anchor, at)) found(anchor, at);
    }
    const next = at + ANCHOR_WIDTH;
    if (next >= text.length) return;
    h = (Math.imul((h - Math.imul(text.charCodeAt(at), TOP)) | 0, BASE) + text.charCodeAt(next)) | 0;
  }
}

/** Every occurrence of a text without a line break in `lines[i]` for each `i` of `at`: each lies within one line's text. */
export function occurrencesInLines(lines: LineList, text: string): SubstringSpan[] {
  const spans: SubstringSpan[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines.at(i)!;
    for (let c = line.indexOf(text); c !== -1; c = line.indexOf(text, c + 1))
      spans.push({ line: i, column: c, endLine: i, endColumn: c + text.length });
  }
  return spans;
}

import type { LineModel } from '@patchsmith/core';
import { type LineKey, trimmedEnd, trimmedStart } from './normalize.js';

/**
 * A cheap filter for "could this line equal one of a few texts?": indexes hash only the lines
 * that pass it, not every line of a large file.
 */

/** Below this many lines an index hashes every line: the filter would cost more than it saves. */
export const PARTIAL_MIN_LINES = 2_048;

/** Most slots of the fingerprint filter: with a few thousand expected texts, few unrelated lines pass. */
const MAX_FILTER_SIZE = 1 << 16;

/** A power of two about 32 slots per expected text, so about 3% of unrelated lines pass. */
export function fingerprintSlots(expected: number): number {
  let size = 256;
  while (size < expected * 32 && size < MAX_FILTER_SIZE) size *= 2;
  return size;
}

/**
 * A hash of a text's length and six of its characters (the last three, and three spread through
 * it): equal texts, equal fingerprints. Cheap enough to run on every line of a large file.
 */
export function fingerprint(text: string): number {
  return fingerprintAt(text, 0, text.length);
}

/** `fingerprint(text.slice(from, to))`, without the slice. */
export function fingerprintAt(text: string, from: number, to: number): number {
  const n = to - from;
  if (n === 0) return 0;
  let h = n;
  h = (Math.imul(h, 31) + text.charCodeAt(from + n - 1)) | 0;
  h = (Math.imul(h, 31) + text.charCodeAt(from + (n > 1 ? n - 2 : 0))) | 0;
  h = (Math.imul(h, 31) + text.charCodeAt(from + (n > 2 ? n - 3 : 0))) | 0;
  h = (Math.imul(h, 31) + text.charCodeAt(from + (n >> 1))) | 0;
  h = (Math.imul(h, 31) + text.charCodeAt(from + (n >> 2))) | 0;
  h = (Math.imul(h, 31) + text.charCodeAt(from + n - 1 - (n >> 2))) | 0;
  // murmur3's finaliser, so every input bit reaches the filter's index bits.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A set of texts that answers "not one of them" for most other texts without hashing them in full. */
export interface TextSet {
  readonly texts: ReadonlySet<string>;
  has(text: string): boolean;
  /** `text.slice(from, to)` when it is one of the texts, else null; most others are told without slicing. */
  sliceIfHas(text: string, from: number, to: number): string | null;
  /**
   * Calls `found(i, text)` for every line i of `lines` whose text, normalised by `key`, is one
   * of the texts, in order.
   */
  scanLines(lines: LineModel, key: SpanKey, found: (line: number, text: string) => void): void;
}

/** The normalisations a line's span can be cut to without building its string. */
export type SpanKey = Exclude<LineKey, 'lookalike'>;

/** The texts as a `TextSet`: a fingerprint filter in front of a `Set`. */
export function textSet(texts: Iterable<string>): TextSet {
  const set = new Set(texts);
  const size = fingerprintSlots(set.size);
  const filter = new Uint8Array(size);
  for (const text of set) filter[fingerprint(text) & (size - 1)] = 1;
  return {
    texts: set,
    has: (text) => filter[fingerprint(text) & (size - 1)] === 1 && set.has(text),
    sliceIfHas(text, from, to) {
      if (filter[fingerprintAt(text, from, to) & (size - 1)] !== 1) return null;
      const slice = text.slice(from, to);
      return set.has(slice) ? slice : null;
    },
    scanLines: (lines, key, found) => scanLines(lines, key, set, filter, found),
  };
}

const LF = 10;
const CR = 13;

/**
 * `TextSet.scanLines`: one loop over the line starts, with the line end and `fingerprintAt`
 * written out in it. A CLI process runs it once, before the JIT has optimised anything: there a
 * 100,000-line file took 8 ms against 10–15 ms through a call per line for the end, the
 * fingerprint and the set (warm, 2 against 3.5 ms).
 */
function scanLines(
  lines: LineModel,
  key: SpanKey,
  set: ReadonlySet<string>,
  filter: Uint8Array,
  found: (line: number, text: string) => void,
): void {
  const { text, starts } = lines;
  const mask = filter.length - 1;
  const count = lines.length;
  for (let i = 0; i < count; i++) {
    let from = starts[i]!;
    let to = starts[i + 1]!;
    // The end of the line's text (as LineModel.textEnd): before its LF, CRLF or CR.
    if (to > from) {
      const last = text.charCodeAt(to - 1);
      if (last === LF) to = to - 1 > from && text.charCodeAt(to - 2) === CR ? to - 2 : to - 1;
      else if (last === CR) to--;
    }
    if (key !== 'exact') to = trimmedEnd(text, from, to);
    if (key === 'trimmed') from = trimmedStart(text, from, to);
    const n = to - from;
    let h = 0;
    if (n !== 0) {
      // fingerprintAt(text, from, to), inlined (a call per line: ~10.7 against ~8.5 ms, fresh
      // process, 100,000 lines); fingerprint.test.ts pins that the two agree.
      h = n;
      h = (Math.imul(h, 31) + text.charCodeAt(from + n - 1)) | 0;
      h = (Math.imul(h, 31) + text.charCodeAt(from + (n > 1 ? n - 2 : 0))) | 0;
      h = (Math.imul(h, 31) + text.charCodeAt(from + (n > 2 ? n - 3 : 0))) | 0;
      h = (Math.imul(h, 31) + text.charCodeAt(from + (n >> 1))) | 0;
      h = (Math.imul(h, 31) + text.charCodeAt(from + (n >> 2))) | 0;
      h = (Math.imul(h, 31) + text.charCodeAt(from + n - 1 - (n >> 2))) | 0;
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      h ^= h >>> 16;
    }
    if (filter[(h >>> 0) & mask] !== 1) continue;
    const slice = text.slice(from, to);
    if (set.has(slice)) found(i, slice);
  }
}

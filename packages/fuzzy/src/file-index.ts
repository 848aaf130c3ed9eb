import { LineModel } from '@patchsmith/core';
import { PARTIAL_MIN_LINES, textSet } from './fingerprint.js';
import { type LineKey, normalizeLine } from './normalize.js';
import type { LineList } from './types.js';

export { PARTIAL_MIN_LINES };

/** One normalisation of a file's lines: each line's id, and where every id occurs. */
export interface LineTable {
  /** Normalised text -> id. */
  readonly ids: ReadonlyMap<string, number>;
  /** Line index -> id of its normalised text (-1 in a partial table: a line no search asks for). */
  readonly lineIds: Int32Array;
  /** Sorted line indexes holding an id (a view, not a copy). */
  positions(id: number): Int32Array;
}

/**
 * A file's lines (no line endings, no BOM) with hash indexes of their normalised forms, built
 * lazily once per normalisation. One index serves every chunk located in that file.
 */
export interface FileIndex {
  readonly lines: LineList;
  /**
   * The table for a normalisation, built on first use. With `needed` (normalised texts a search
   * looks up), a table that knows only the lines the index was told to expect may answer: it
   * gives those texts the same positions the full table would, and every other line id -1.
   */
  table(key: LineKey, needed?: readonly string[]): LineTable;
}

/** A table of only the expected texts, and the normalised texts it can answer for. */
interface PartialTable {
  table: LineTable;
  covers: ReadonlySet<string>;
}

/**
 * Indexes a file's lines for locating. `lines` excludes the empty string after a final newline.
 * `expected`, when given, are the (raw) texts searches will mostly ask about, such as every line
 * of every chunk of an Update: then a table hashes only the file lines that can equal one of
 * them, not the whole file. A search for any other text still gets the full table.
 */
export function indexFile(lines: LineList, expected?: readonly string[]): FileIndex {
  const full = new Map<LineKey, LineTable>();
  const partial = new Map<LineKey, PartialTable>();
  // On a small file hashing every line is cheap, and the filter would cost more than it saves.
  const worthPartial = expected !== undefined && lines.length >= PARTIAL_MIN_LINES;
  const fullTable = (key: LineKey): LineTable => {
    let built = full.get(key);
    if (!built) {
      built = buildTable(lines, key);
      full.set(key, built);
    }
    return built;
  };
  return {
    lines,
    table(key, needed) {
      const complete = full.get(key);
      if (complete || !worthPartial || needed === undefined) return complete ?? fullTable(key);
      let part = partial.get(key);
      if (!part) {
        part = buildPartialTable(lines, key, expected ?? []);
        partial.set(key, part);
      }
      const covers = part.covers;
      return needed.every((text) => covers.has(text)) ? part.table : fullTable(key);
    },
  };
}

function buildTable(lines: LineList, key: LineKey): LineTable {
  const ids = new Map<string, number>();
  const lineIds = new Int32Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const text = normalizeLine(lines.at(i)!, key);
    let id = ids.get(text);
    if (id === undefined) {
      id = ids.size;
      ids.set(text, id);
    }
    lineIds[i] = id;
  }
  return withPositions(ids, lineIds);
}

/**
 * The table restricted to the expected texts: a cheap fingerprint of each normalised line rules
 * out almost every line that equals none of them, so only candidates are hashed in full.
 */
function buildPartialTable(lines: LineList, key: LineKey, expected: readonly string[]): PartialTable {
  const covers = textSet(expected.map((text) => normalizeLine(text, key)));
  const ids = new Map<string, number>();
  const lineIds = new Int32Array(lines.length).fill(-1);
  const note = (i: number, text: string) => {
    let id = ids.get(text);
    if (id === undefined) {
      id = ids.size;
      ids.set(text, id);
    }
    lineIds[i] = id;
  };
  if (lines instanceof LineModel && key !== 'lookalike') covers.scanLines(lines, key, note);
  else {
    for (let i = 0; i < lines.length; i++) {
      const text = normalizeLine(lines.at(i)!, key);
      if (covers.has(text)) note(i, text);
    }
  }
  return { table: withPositions(ids, lineIds), covers: covers.texts };
}

/** Adds the positions of every id: one flat array of line indexes grouped by id (a counting sort). */
function withPositions(ids: ReadonlyMap<string, number>, lineIds: Int32Array): LineTable {
  const offsets = new Int32Array(ids.size + 1);
  for (let i = 0; i < lineIds.length; i++) if (lineIds[i]! >= 0) offsets[lineIds[i]! + 1]!++;
  for (let id = 0; id < ids.size; id++) offsets[id + 1]! += offsets[id]!;
  const order = new Int32Array(offsets[ids.size]!);
  const fill = offsets.slice(0, ids.size);
  for (let i = 0; i < lineIds.length; i++) {
    const id = lineIds[i]!;
    if (id >= 0) order[fill[id]!++] = i;
  }
  return {
    ids,
    lineIds,
    positions: (id) => order.subarray(offsets[id]!, offsets[id + 1]!),
  };
}

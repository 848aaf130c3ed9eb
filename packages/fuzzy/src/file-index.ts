import { type LineKey, normalizeLine } from './normalize.js';

/** One normalisation of a file's lines: each line's id, and where every id occurs. */
export interface LineTable {
  /** Normalised text -> id. */
  readonly ids: ReadonlyMap<string, number>;
  /** Line index -> id of its normalised text. */
  readonly lineIds: Int32Array;
  /** Sorted line indexes holding an id (a view, not a copy). */
  positions(id: number): Int32Array;
}

/**
 * A file's lines (no line endings, no BOM) with hash indexes of their normalised forms, built
 * lazily once per normalisation. One index serves every chunk located in that file.
 */
export interface FileIndex {
  readonly lines: readonly string[];
  /** The table for a normalisation, built on first use. */
  table(key: LineKey): LineTable;
}

/** Indexes a file's lines for locating. `lines` excludes the empty string after a final newline. */
export function indexFile(lines: readonly string[]): FileIndex {
  const tables = new Map<LineKey, LineTable>();
  return {
    lines,
    table(key) {
      let built = tables.get(key);
      if (!built) {
        built = buildTable(lines, key);
        tables.set(key, built);
      }
      return built;
    },
  };
}

function buildTable(lines: readonly string[], key: LineKey): LineTable {
  const ids = new Map<string, number>();
  const lineIds = new Int32Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const text = normalizeLine(lines[i]!, key);
    let id = ids.get(text);
    if (id === undefined) {
      id = ids.size;
      ids.set(text, id);
    }
    lineIds[i] = id;
  }
  // One flat array of line indexes grouped by id (a counting sort), instead of an array per id.
  const offsets = new Int32Array(ids.size + 1);
  for (const id of lineIds) offsets[id + 1]!++;
  for (let id = 0; id < ids.size; id++) offsets[id + 1]! += offsets[id]!;
  const order = new Int32Array(lines.length);
  const fill = offsets.slice(0, ids.size);
  for (let i = 0; i < lines.length; i++) order[fill[lineIds[i]!]!++] = i;
  return {
    ids,
    lineIds,
    positions: (id) => order.subarray(offsets[id]!, offsets[id + 1]!),
  };
}

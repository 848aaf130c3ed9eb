import { hashBytes } from '@patchsmith/core';
import type { Node } from 'jsonc-parser';
import type { CellType, Notebook, NotebookCell } from './notebook-cells.js';
import type { ViewCell } from './notebook-view.js';

/** How deep a cell object and its values sit in nbformat's JSON (root, `cells`, the cell). */
const CELL_DEPTH = 2;

/** The text a JSON node spans. */
const textOf = (notebook: Notebook, node: Node) =>
  notebook.text.slice(node.offset, node.offset + node.length);

/** A value as the notebook writes JSON: its indentation at `depth`, its line ending, its escapes. */
function serialize(notebook: Notebook, value: unknown, depth: number): string {
  const { indent, eol } = notebook;
  let json =
    indent === null
      ? JSON.stringify(value)
      : JSON.stringify(value, null, indent).replaceAll('\n', `${eol}${indent.repeat(depth)}`);
  if (notebook.asciiOnly) {
    json = json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  return json;
}

/** A source as the cell keeps it: nbformat's list of lines (each with its newline), or one string. */
const sourceValue = (source: string, asLines: boolean) =>
  asLines ? (source === '' ? [] : source.split(/(?<=\n)/)) : source;

/** Keys in alphabetical order (nbformat writes with `sort_keys`). */
const isSorted = (keys: readonly string[]) => keys.every((k, i) => i === 0 || keys[i - 1]! <= k);

/** An object with its keys sorted when the notebook sorts them, else in the order given. */
function ordered(object: Record<string, unknown>, sorted: boolean): Record<string, unknown> {
  if (!sorted) return object;
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A cell's fields for its type: a code cell has (cleared) outputs and a count, the others none. */
function withType(cell: Record<string, unknown>, type: CellType): Record<string, unknown> {
  const { execution_count: _, outputs: __, ...rest } = cell;
  rest.cell_type = type;
  return type === 'code' ? { ...rest, execution_count: null, outputs: [] } : rest;
}

/** An id for a new cell, the same for the same edit (a plan is reproducible) and unused in the notebook. */
function newCellId(notebook: Notebook, at: number, source: string, taken: Set<string>): string {
  for (let n = 0; ; n++) {
    const id = hashBytes(new TextEncoder().encode(`${n}:${at}:${source}:${notebook.text.length}`)).slice(
      0,
      8,
    );
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/** The ids the notebook's cells have. */
function cellIds(notebook: Notebook): Set<string> {
  return new Set(
    notebook.cells.map((c) => (JSON.parse(textOf(notebook, c.node)) as { id?: string }).id ?? ''),
  );
}

/** The source style and key order new cells follow: the notebook's first cell's, else nbformat's. */
function newCellStyle(notebook: Notebook): { asLines: boolean; sorted: boolean; keys: string[] } {
  const first = notebook.cells[0];
  if (first === undefined) return { asLines: true, sorted: true, keys: [] };
  const keys = Object.keys(JSON.parse(textOf(notebook, first.node)));
  return { asLines: first.sourceAsLines, sorted: isSorted(keys), keys };
}

/** An object with its keys in the order of `keys` (the first cell's), the others after them. */
function orderedLike(object: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const rank = (k: string) => (keys.includes(k) ? keys.indexOf(k) : keys.length);
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => rank(a) - rank(b)));
}

/**
 * An edited cell of the notebook: only its source is rewritten (and, for a code cell, its outputs
 * and count cleared, as the code they came from changed), so the rest keeps its bytes.
 */
function editedCell(notebook: Notebook, cell: NotebookCell, source: string): string {
  const text = textOf(notebook, cell.node);
  const replacements: [Node, string][] = [
    [cell.sourceNode, serialize(notebook, sourceValue(source, cell.sourceAsLines), CELL_DEPTH + 1)],
  ];
  if (cell.type === 'code') {
    if (cell.outputsNode) replacements.push([cell.outputsNode, '[]']);
    if (cell.countNode) replacements.push([cell.countNode, 'null']);
  }
  let out = text;
  for (const [node, value] of replacements.sort(([a], [b]) => b.offset - a.offset)) {
    const at = node.offset - cell.node.offset;
    out = out.slice(0, at) + value + out.slice(at + node.length);
  }
  return out;
}

/** A cell whose type the edit changed: written again whole, its metadata and id kept. */
function convertedCell(notebook: Notebook, cell: NotebookCell, type: CellType, source: string): string {
  const was = JSON.parse(textOf(notebook, cell.node)) as Record<string, unknown>;
  const converted = withType({ ...was, source: sourceValue(source, cell.sourceAsLines) }, type);
  return serialize(notebook, ordered(converted, isSorted(Object.keys(was))), CELL_DEPTH);
}

/** The text of a cell of the edited notebook. */
function cellText(notebook: Notebook, cell: ViewCell, at: number, ids: Set<string>): string {
  if (cell.from !== null) {
    const was = notebook.cells[cell.from]!;
    if (was.type !== cell.type) return convertedCell(notebook, was, cell.type, cell.source);
    return was.source === cell.source ? textOf(notebook, was.node) : editedCell(notebook, was, cell.source);
  }
  const style = newCellStyle(notebook);
  const fresh = withType(
    {
      ...(notebook.hasIds ? { id: newCellId(notebook, at, cell.source, ids) } : {}),
      metadata: {},
      source: sourceValue(cell.source, style.asLines),
    },
    cell.type,
  );
  return serialize(
    notebook,
    style.sorted ? ordered(fresh, true) : orderedLike(fresh, style.keys),
    CELL_DEPTH,
  );
}

/** The cells array with other cells: the notebook's own spacing between them kept. */
function cellsArray(notebook: Notebook, texts: string[]): string {
  if (texts.length === 0) return '[]';
  const { text, cellsNode, indent, eol } = notebook;
  const items = cellsNode.children ?? [];
  const first = items[0];
  const last = items.at(-1);
  const close = cellsNode.offset + cellsNode.length - 1;
  const prefix = first
    ? text.slice(cellsNode.offset + 1, first.offset)
    : indent === null
      ? ''
      : eol + indent.repeat(CELL_DEPTH);
  const suffix = last ? text.slice(last.offset + last.length, close) : indent === null ? '' : eol + indent;
  const second = items[1];
  const separator =
    first && second
      ? text.slice(first.offset + first.length, second.offset)
      : `,${indent === null ? '' : eol + indent.repeat(CELL_DEPTH)}`;
  return `[${prefix}${texts.join(separator)}${suffix}]`;
}

/** Whether the edit kept every cell where it was (none added, removed or moved). */
const sameCells = (notebook: Notebook, cells: readonly ViewCell[]) =>
  cells.length === notebook.cells.length && cells.every((c, i) => c.from === i);

/**
 * The notebook's JSON with the edited cells, in its own formatting: a cell the edit left alone
 * keeps its bytes (outputs included), an edited one changes only where it changed, so a one-line
 * change of a cell is a one-line diff (plus its cleared outputs).
 */
export function printNotebook(notebook: Notebook, cells: readonly ViewCell[]): string {
  const ids = notebook.hasIds ? cellIds(notebook) : new Set<string>();
  const texts = cells.map((cell, at) => cellText(notebook, cell, at, ids));
  const { text, cellsNode } = notebook;
  if (sameCells(notebook, cells)) {
    // In place: the text between cells is the notebook's own, in one pass (a notebook may be large).
    const pieces: string[] = [];
    let at = 0;
    notebook.cells.forEach(({ node }, i) => {
      pieces.push(text.slice(at, node.offset), texts[i]!);
      at = node.offset + node.length;
    });
    pieces.push(text.slice(at));
    return pieces.join('');
  }
  return (
    text.slice(0, cellsNode.offset) +
    cellsArray(notebook, texts) +
    text.slice(cellsNode.offset + cellsNode.length)
  );
}

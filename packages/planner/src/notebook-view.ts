import type { EditError } from '@patchsmith/core';
import { CELL_TYPES, type CellType, type Notebook } from './notebook-cells.js';

/**
 * A cell of the cell view: `from` is the cell it was (its index in the notebook read), or null
 * for a cell the edit adds.
 */
export interface ViewCell {
  from: number | null;
  type: CellType;
  source: string;
}

/**
 * The line that starts a cell in the cell view: `# %% cell 3 [code]` for the notebook's third
 * cell, `# %% [markdown]` for a cell the edit adds. Moving a marker with its lines moves the cell,
 * removing them removes it, and changing the type in brackets converts it.
 */
const MARKER = /^# %% (?:cell (\d+) )?\[([a-z]+)\]\r?$/;

/** The marker line of the notebook's cell at `index`. */
const markerOf = (index: number, type: CellType) => `# %% cell ${index + 1} [${type}]`;

/**
 * A notebook as the model edits it: each cell's marker line, then its source; a source's own
 * final newline is one empty line before the next marker.
 */
export function cellView(notebook: Notebook): string {
  return notebook.cells
    .map((cell, i) => `${markerOf(i, cell.type)}\n${cell.source === '' ? '' : `${cell.source}\n`}`)
    .join('');
}

const invalid = (path: string, message: string): { ok: false; errors: EditError[] } => ({
  ok: false,
  errors: [{ code: 'INVALID_EDIT', message: `${path}: ${message}`, path }],
});

/** A marker line's cell, or null for a line that is not one. */
function markerCell(line: string): { number: number | null; type: string } | null {
  const match = MARKER.exec(line);
  if (match === null) return null;
  return { number: match[1] === undefined ? null : Number(match[1]), type: match[2]! };
}

/**
 * The cells of an edited cell view, in order. A cell's source is what follows its marker line up
 * to the next marker, less one final newline. Text before the first marker, a marker of a cell
 * the notebook does not have or of one already taken, and an unknown type are `INVALID_EDIT`.
 */
export function cellsOfView(
  view: string,
  cellCount: number,
  path: string,
): { ok: true; cells: ViewCell[] } | { ok: false; errors: EditError[] } {
  const lines = view.split(/(?<=\n)/);
  const cells: ViewCell[] = [];
  const taken = new Set<number>();
  let source: string[] | null = null;
  const close = () => {
    if (source === null) return;
    cells.at(-1)!.source = source.join('').replace(/\r?\n$/, '');
  };
  for (const [i, line] of lines.entries()) {
    const marker = markerCell(line.replace(/\n$/, ''));
    if (marker === null) {
      if (source === null) {
        if (line.trim() === '') continue;
        return invalid(path, `line ${i + 1} is before the first cell marker (a line like "# %% [code]")`);
      }
      source.push(line);
      continue;
    }
    if (!(CELL_TYPES as readonly string[]).includes(marker.type)) {
      return invalid(path, `line ${i + 1}: unknown cell type [${marker.type}] (code, markdown or raw)`);
    }
    let from: number | null = null;
    if (marker.number !== null) {
      from = marker.number - 1;
      if (from < 0 || from >= cellCount) {
        return invalid(
          path,
          `line ${i + 1}: the notebook has no cell ${marker.number} (a new cell's marker has no number)`,
        );
      }
      if (taken.has(from)) return invalid(path, `line ${i + 1}: cell ${marker.number} appears twice`);
      taken.add(from);
    }
    close();
    cells.push({ from, type: marker.type as CellType, source: '' });
    source = [];
  }
  close();
  return { ok: true, cells };
}

/** Whether the notebook's cell view reads back as its cells (a source holding a marker line does not). */
export function viewRoundTrips(notebook: Notebook, view: string): boolean {
  const read = cellsOfView(view, notebook.cells.length, '');
  return (
    read.ok &&
    read.cells.length === notebook.cells.length &&
    read.cells.every(
      (c, i) => c.from === i && c.type === notebook.cells[i]!.type && c.source === notebook.cells[i]!.source,
    )
  );
}

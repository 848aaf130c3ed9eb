/** Laws of the notebook cell view: read -> view -> read back -> print is the notebook byte for byte; an edit changes only its cell. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readNotebook } from './notebook-cells.js';
import { cellsOfView, cellView } from './notebook-view.js';
import { printNotebook } from './print-notebook.js';

/** A source line: text that may hold quotes, backslashes, tabs, non-ASCII, and rarely a marker-like line. */
const line = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.string({ unit: fc.constantFrom('a', ' ', '"', '\\', '\t', 'é', '€', '#', '%', 'x', '😀') }),
  },
  { weight: 1, arbitrary: fc.constantFrom('# %% cell 1 [code]', '# %% [markdown]', '', '# %%') },
);
const source = fc.tuple(fc.array(line, { maxLength: 5 }), fc.boolean()).map(([lines, ends]) => {
  const text = lines.join('\n');
  return ends && text !== '' ? `${text}\n` : text;
});
const cell = fc.record({
  type: fc.constantFrom('code', 'markdown', 'raw'),
  source,
  asLines: fc.boolean(),
  outputs: fc.array(
    fc.record({
      output_type: fc.constant('stream'),
      name: fc.constant('stdout'),
      text: fc.array(fc.string()),
    }),
    { maxLength: 2 },
  ),
  count: fc.option(fc.nat(99)),
  tags: fc.option(fc.array(fc.string(), { maxLength: 2 })),
});
const style = fc.record({
  indent: fc.constantFrom(' ', '  ', '    ', '\t'),
  sorted: fc.boolean(),
  ids: fc.boolean(),
  crlf: fc.boolean(),
  ascii: fc.boolean(),
  finalNewline: fc.boolean(),
});

type Cell = typeof cell extends fc.Arbitrary<infer T> ? T : never;
type Style = typeof style extends fc.Arbitrary<infer T> ? T : never;

const splitSource = (text: string) => (text === '' ? [] : text.split(/(?<=\n)/));

/** A cell object as Jupyter (or another writer) would hold it. */
function cellObject(c: Cell, i: number, s: Style): Record<string, unknown> {
  const object: Record<string, unknown> = {
    ...(s.ids ? { id: `c${i}` } : {}),
    cell_type: c.type,
    metadata: c.tags === null ? {} : { tags: c.tags },
    ...(c.type === 'code' ? { execution_count: c.count, outputs: c.outputs } : {}),
    source: c.asLines ? splitSource(c.source) : c.source,
  };
  return s.sorted ? Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : 1))) : object;
}

/** A notebook's text in a given style (Python's json.dump with indent, ensure_ascii, newline). */
function notebookText(cells: Cell[], s: Style): string {
  const doc = {
    cells: cells.map((c, i) => cellObject(c, i, s)),
    metadata: { language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  let text = JSON.stringify(doc, null, s.indent);
  if (s.ascii)
    text = text.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (s.crlf) text = text.replaceAll('\n', '\r\n');
  return s.finalNewline ? `${text}${s.crlf ? '\r\n' : '\n'}` : text;
}

/** Whether a source holds a line the cell view reads as a marker (such a notebook is edited as text). */
const holdsMarker = (c: Cell) =>
  c.source.split('\n').some((l) => /^# %% (?:cell \d+ )?\[[a-z]+\]\r?$/.test(l));

describe('the notebook cell view', () => {
  it('read -> view -> read back -> print is the notebook byte for byte (no edit, no change)', () => {
    fc.assert(
      fc.property(fc.array(cell, { maxLength: 6 }), style, (cells, s) => {
        const text = notebookText(cells, s);
        const notebook = readNotebook(text);
        expect(notebook).not.toBeNull();
        const view = cellsOfView(cellView(notebook!), notebook!.cells.length, 'n.ipynb');
        if (cells.some(holdsMarker)) return;
        expect(view.ok).toBe(true);
        if (!view.ok) return;
        expect(view.cells.map((c) => c.source)).toEqual(cells.map((c) => c.source));
        expect(printNotebook(notebook!, view.cells)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('an edit of one cell changes that cell only: its source, and a code cell’s outputs and count', () => {
    fc.assert(
      fc.property(
        fc.array(cell, { minLength: 1, maxLength: 5 }).filter((cs) => !cs.some(holdsMarker)),
        style,
        fc.nat(),
        fc.string({ unit: fc.constantFrom('b', 'é', '"', '\n', ' ') }),
        (cells, s, pick, added) => {
          const at = pick % cells.length;
          const text = notebookText(cells, s);
          const notebook = readNotebook(text)!;
          const view = cellsOfView(cellView(notebook), cells.length, 'n.ipynb');
          if (!view.ok) throw new Error('the view did not read back');
          const edited = view.cells.map((c, i) => (i === at ? { ...c, source: `${c.source}${added}x` } : c));
          const printed = printNotebook(notebook, edited);
          const expected = cells.map((c, i) => cellObject(c, i, s));
          const target = expected[at]!;
          const changed = `${cells[at]!.source}${added}x`;
          target.source = cells[at]!.asLines ? splitSource(changed) : changed;
          if (target.cell_type === 'code') Object.assign(target, { outputs: [], execution_count: null });
          expect(JSON.parse(printed).cells).toEqual(expected);
          // The other cells keep their bytes: the text before the edited cell is the notebook's own.
          const start = notebook.cells[at]!.node.offset;
          expect(printed.slice(0, start)).toBe(text.slice(0, start));
          const tail = text.length - (notebook.cells[at]!.node.offset + notebook.cells[at]!.node.length);
          expect(printed.slice(printed.length - tail)).toBe(text.slice(text.length - tail));
        },
      ),
      { numRuns: 200 },
    );
  });
});

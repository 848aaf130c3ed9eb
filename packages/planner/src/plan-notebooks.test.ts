/** Planning an edit of a notebook by cell (`planNotebooks` around `planEdits`), on a real notebook and on hostile ones. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { EditScript, StrReplaceCommand } from '@patchsmith/core';
import { compileStrReplace, parsePatch } from '@patchsmith/grammar';
import { describe, expect, it } from 'vitest';
import { readNotebook } from './notebook-cells.js';
import { cellView } from './notebook-view.js';
import { planEdits } from './plan-edits.js';
import { planNotebooks } from './plan-notebooks.js';
import type { FileState, PlanResult } from './types.js';

/** A notebook of nteract's examples (a devDependency), as its writer wrote it. */
const example = (name: string) =>
  readFileSync(createRequire(import.meta.url).resolve(`@nteract/examples/${name}`), 'utf8');
/** nteract's intro notebook (nbformat 4.0): a markdown cell, code cells with outputs, metadata, no ids. */
const REAL = example('python/intro.ipynb');
/** nteract's R notebook (nbformat 4.4): two-space indentation, keys not sorted (`source` before `metadata`). */
const R_NOTEBOOK = example('r/vegalite-for-r.ipynb');
const REAL_CELLS: { source: string[]; outputs?: unknown[] }[] = JSON.parse(REAL).cells;
const root = '/r';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const filesOf = (text: string, path = 'nb.ipynb'): Map<string, FileState> =>
  new Map([[path, { kind: 'file', bytes: encoder.encode(text), mode: 0o100644 }]]);

function scriptOf(patch: string): EditScript {
  const parsed = parsePatch(patch);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.value;
}
function editsOf(edits: StrReplaceCommand[]): EditScript {
  const compiled = compileStrReplace(edits);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.errors));
  return compiled.value;
}

function plan(script: EditScript, text = REAL): PlanResult {
  const files = filesOf(text);
  return planNotebooks(files, (shown) => planEdits(script, shown, { root }));
}

/** What a successful plan leaves in the notebook. */
function written(result: PlanResult): string {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return decoder.decode(result.plan.writes[0]!.after!.bytes);
}

/** The real notebook's text from its cell `n` (1-based, its `{` at the cells' indentation) to its end. */
function fromCell(n: number): string {
  let at = -1;
  for (let i = 0; i < n; i++) at = REAL.indexOf('\n  {\n', at + 1);
  return REAL.slice(at + 1);
}

const patch = (...lines: string[]) =>
  ['*** Begin Patch', '*** Update File: nb.ipynb', ...lines, '*** End Patch'].join('\n');

const IMAGE = "Image(url='https://avatars2.githubusercontent.com/u/12401040?v=3&s=200')";

describe('a real notebook (nteract examples) by cell', () => {
  it('shows the model its cells: a marker line each, then the source', () => {
    expect(cellView(readNotebook(REAL)!)).toBe(
      [
        '# %% cell 1 [markdown]',
        '## The Notable Nteract Notebook',
        '',
        '![comp](https://assets-cdn.github.com/images/icons/emoji/unicode/1f4d3.png)',
        '',
        "**It's a notebook!**",
        '',
        'This is a standalone notebook for interacting with the REPL of your choice, being built at [nteract/nteract](https://github.com/nteract/nteract). The primary goals are:',
        '',
        '* Standalone distributable application for the notebook (in Electron!)',
        '* One click installers for macOS and Windows',
        '* Bundles a kernel with scientific Python packages',
        '* Integrates well with the current ecosystem of tooling',
        '  * Should be able to detect other kernels',
        '  * Comms should work (for ipywidgets)',
        '# %% cell 2 [code]',
        'import IPython',
        '',
        'from IPython.display import HTML',
        'from IPython.display import Markdown',
        'from IPython.display import display',
        '',
        'display(HTML("<h1>Multiple</h1>"))',
        'display(HTML("<p>Display Elements</p>"))',
        "display(Markdown('**awesome**'))",
        '',
        "print('hey')",
        '42',
        '# %% cell 3 [code]',
        '! ls ..',
        '# %% cell 4 [code]',
        'thistextwillerror',
        '# %% cell 5 [code]',
        'from IPython.display import Image',
        IMAGE,
        '# %% cell 6 [code]',
        '',
      ].join('\n'),
    );
  });

  it('a one-line change of a code cell rewrites that line and clears its outputs and count, nothing else', () => {
    const after = written(plan(scriptOf(patch('@@', "-print('hey')", "+print('hello')"))));
    const expected = REAL.replace('"print(\'hey\')\\n"', '"print(\'hello\')\\n"')
      .replace('"execution_count": 1', '"execution_count": null')
      .replace(/"outputs": \[\n[\s\S]*?\n {3}\],/, '"outputs": [],');
    expect(expected).not.toBe(REAL);
    expect(after).toBe(expected);
    // The other cells' outputs keep their bytes, escapes (`\u001b`) included.
    expect(after.endsWith(fromCell(3))).toBe(true);
    expect(fromCell(3)).toContain('\\u001b[34mbin');
  });

  it('a markdown edit through str_replace is a one-line diff, with the diff of the JSON file', () => {
    const result = plan(
      editsOf([{ command: 'str_replace', path: 'nb.ipynb', old_str: 'Notable Nteract', new_str: 'Edited' }]),
    );
    const after = written(result);
    expect(after).toBe(REAL.replace('"## The Notable Nteract Notebook\\n"', '"## The Edited Notebook\\n"'));
    if (!result.ok) return;
    expect(result.plan.files[0]).toMatchObject({
      path: 'nb.ipynb',
      op: 'update',
      additions: 1,
      deletions: 1,
    });
    expect(result.plan.files[0]!.diff).toContain(
      '-    "## The Notable Nteract Notebook\\n",\n+    "## The Edited Notebook\\n",\n',
    );
    // The transaction checks the real file, not the view.
    expect(result.plan.writes[0]!.before!.bytes).toEqual(encoder.encode(REAL));
  });

  it('adds a cell (a marker without a number), in the notebook’s style: sorted keys, no id', () => {
    const after = written(
      plan(scriptOf(patch('@@ # %% cell 3 [code]', ' ! ls ..', '+# %% [code]', '+x = 1', '+x'))),
    );
    const cells = JSON.parse(after).cells;
    expect(cells.map((c: { source: string[] }) => c.source.join(''))).toEqual([
      ...REAL_CELLS.slice(0, 3).map((c) => c.source.join('')),
      'x = 1\nx',
      ...REAL_CELLS.slice(3).map((c) => c.source.join('')),
    ]);
    // nbformat 4.0 has no cell ids, so the new cell has none; its keys sorted as nbformat writes them.
    expect(cells[3]).toEqual({
      cell_type: 'code',
      execution_count: null,
      metadata: {},
      outputs: [],
      source: ['x = 1\n', 'x'],
    });
    expect(Object.keys(cells[3])).toEqual(['cell_type', 'execution_count', 'metadata', 'outputs', 'source']);
    // The cells around it keep their bytes.
    const head = REAL.slice(0, REAL.length - fromCell(4).length);
    expect(after.startsWith(head.replace(/\n$/, ''))).toBe(true);
    expect(after.endsWith(fromCell(4))).toBe(true);
  });

  it('removes a cell (its marker and lines) and moves one (its marker with its lines)', () => {
    const removed = written(
      plan(
        scriptOf(patch('@@', ' ! ls ..', '-# %% cell 4 [code]', '-thistextwillerror', ' # %% cell 5 [code]')),
      ),
    );
    expect(JSON.parse(removed).cells).toEqual(REAL_CELLS.filter((_, i) => i !== 3));
    const moved = written(
      plan(
        scriptOf(
          patch(
            '@@',
            '-# %% cell 5 [code]',
            '-from IPython.display import Image',
            `-${IMAGE}`,
            ' # %% cell 6 [code]',
            '+# %% cell 5 [code]',
            '+from IPython.display import Image',
            `+${IMAGE}`,
          ),
        ),
      ),
    );
    const notebook = JSON.parse(moved);
    // A moved cell that was not edited keeps its outputs and count.
    expect(notebook.cells).toEqual([...REAL_CELLS.slice(0, 4), REAL_CELLS[5], REAL_CELLS[4]]);
    expect(notebook.cells[5].outputs).toHaveLength(1);
    expect(notebook.metadata).toEqual(JSON.parse(REAL).metadata);
  });

  it('converts a cell by its marker’s type, keeping its metadata; a code cell leaves its outputs', () => {
    const after = written(
      plan(
        scriptOf(
          patch(
            '@@',
            '-# %% cell 1 [markdown]',
            '+# %% cell 1 [raw]',
            '@@',
            '-# %% cell 3 [code]',
            '+# %% cell 3 [markdown]',
          ),
        ),
      ),
    );
    const cells = JSON.parse(after).cells;
    expect(cells[0]).toEqual({ ...REAL_CELLS[0], cell_type: 'raw' });
    const { outputs: _, execution_count: __, ...code } = REAL_CELLS[2] as Record<string, unknown>;
    expect(cells[2]).toEqual({ ...code, cell_type: 'markdown' });
    expect(cells[2]).toEqual({ cell_type: 'markdown', metadata: { collapsed: false }, source: ['! ls ..'] });
  });

  it('a deleted notebook is deleted as read, its diff the JSON', () => {
    const result = plan(scriptOf('*** Begin Patch\n*** Delete File: nb.ipynb\n*** End Patch'));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.plan.writes[0]).toMatchObject({ after: null, before: { bytes: encoder.encode(REAL) } });
    expect(result.plan.files[0]!.diff).toContain('-    "## The Notable Nteract Notebook\\n",');
    expect(result.plan.files[0]!.deletions).toBe(REAL.split('\n').length - 1);
  });

  it('refuses a marker of a cell the notebook does not have, a cell twice, an unknown type', () => {
    for (const added of ['+# %% cell 9 [code]', '+# %% cell 1 [markdown]', '+# %% [sql]']) {
      const result = plan(scriptOf(patch('@@', ' ! ls ..', added)));
      expect(result).toMatchObject({ ok: false, errors: [{ code: 'INVALID_EDIT', path: 'nb.ipynb' }] });
    }
  });
});

describe('a notebook in its own style (two-space indentation, keys not sorted)', () => {
  it('an edited code cell keeps its key order and the rest their bytes; an added cell takes the indentation', () => {
    expect(Object.keys(JSON.parse(R_NOTEBOOK).cells[2])).toEqual([
      'cell_type',
      'source',
      'outputs',
      'execution_count',
      'metadata',
    ]);
    const edited = written(
      plan(scriptOf(patch('@@', '-  mark_point() %>%', '+  mark_circle() %>%')), R_NOTEBOOK),
    );
    const expected = R_NOTEBOOK.replace('"  mark_point() %>%\\n"', '"  mark_circle() %>%\\n"')
      .replace('"execution_count": 2', '"execution_count": null')
      .replace(/"outputs": \[\n[\s\S]*?\n {6}\],/, '"outputs": [],');
    expect(expected).not.toBe(R_NOTEBOOK);
    expect(edited).toBe(expected);

    const added = written(
      plan(scriptOf(patch('@@', '   to_irkernel', '+# %% [markdown]', '+Done.')), R_NOTEBOOK),
    );
    const end = R_NOTEBOOK.lastIndexOf('\n    {\n') - 1;
    expect(added.startsWith(R_NOTEBOOK.slice(0, end))).toBe(true);
    expect(added.endsWith(R_NOTEBOOK.slice(end))).toBe(true);
    const cell = added.slice(end, added.length - R_NOTEBOOK.length + end);
    expect(cell).toMatch(/^,\n {4}\{\n {6}"/);
    expect(JSON.parse(cell.slice(1))).toEqual({ cell_type: 'markdown', metadata: {}, source: ['Done.'] });
    expect(JSON.parse(added).cells.map((c: { cell_type: string }) => c.cell_type)).toEqual([
      'markdown',
      'code',
      'code',
      'markdown',
      'code',
    ]);
  });
});

describe('what is not a notebook this reads is edited as text', () => {
  it.each([
    ['not JSON', '{"nbformat": 4, "cells": ['],
    ['another nbformat', '{"nbformat": 3, "worksheets": []}'],
    [
      'an unknown cell type',
      '{"cells": [{"cell_type": "sql", "metadata": {}, "source": "x"}], "nbformat": 4}',
    ],
    [
      'a repeated key (JSON.parse and the reader would disagree)',
      '{"cells": [{"cell_type": "code", "source": "a", "source": "b", "metadata": {}}], "nbformat": 4}',
    ],
    [
      'a source holding a marker line',
      '{"cells": [{"cell_type": "code", "metadata": {}, "source": "x\\n# %% cell 1 [code]"}], "nbformat": 4}',
    ],
  ])('%s', (_, text) => {
    const result = plan(
      editsOf([{ command: 'str_replace', path: 'nb.ipynb', old_str: '"nbformat"', new_str: '"nbformat_"' }]),
      text,
    );
    expect(written(result)).toBe(text.replace('"nbformat"', '"nbformat_"'));
  });
});

describe('an edit written against the JSON of a notebook this reads', () => {
  it('applies as text when it does not apply to the cell view (a git diff of the notebook)', () => {
    const text =
      '{\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": null,\n   "metadata": {},\n   "outputs": [],\n   "source": ["x = 1"]\n  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n';
    const patch = [
      '*** Begin Patch',
      '*** Update File: nb.ipynb',
      '@@',
      '-   "source": ["x = 1"]',
      '+   "source": ["x = 2"]',
      '*** End Patch',
    ].join('\n');
    expect(written(plan(scriptOf(patch), text))).toBe(text.replace('x = 1', 'x = 2'));
  });
});

describe('a new cell in a notebook whose keys are not sorted', () => {
  it("takes the first cell's key order", () => {
    const text =
      '{\n "cells": [\n  {\n   "cell_type": "markdown",\n   "source": ["# a"],\n   "metadata": {}\n  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 2\n}\n';
    const patch = [
      '*** Begin Patch',
      '*** Update File: nb.ipynb',
      '@@',
      ' # a',
      '+# %% [markdown]',
      '+b',
      '*** End Patch',
    ].join('\n');
    const after = JSON.parse(written(plan(scriptOf(patch), text)));
    expect(after.cells.map((c: object) => Object.keys(c))).toEqual([
      ['cell_type', 'source', 'metadata'],
      ['cell_type', 'source', 'metadata'],
    ]);
  });
});

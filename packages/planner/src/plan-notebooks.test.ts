/** Planning an edit of a notebook by cell (`planNotebooks` around `planEdits`), on a real notebook and on hostile ones. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EditScript, StrReplaceCommand } from '@patchsmith/core';
import { compileStrReplace, parsePatch } from '@patchsmith/grammar';
import { describe, expect, it } from 'vitest';
import { readNotebook } from './notebook-cells.js';
import { cellView } from './notebook-view.js';
import { planEdits } from './plan-edits.js';
import { planNotebooks } from './plan-notebooks.js';
import type { FileState, PlanResult } from './types.js';

const REAL = readFileSync(
  fileURLToPath(new URL('../../../tooling/fixtures/notebooks/cell-metadata.ipynb', import.meta.url)),
  'utf8',
);
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

const patch = (...lines: string[]) =>
  ['*** Begin Patch', '*** Update File: nb.ipynb', ...lines, '*** End Patch'].join('\n');

describe('a real notebook (nbformat test data) by cell', () => {
  it('shows the model its cells: a marker line each, then the source', () => {
    expect(cellView(readNotebook(REAL)!)).toBe(
      [
        '# %% cell 1 [code]',
        "print('Hello, World!')",
        '# %% cell 2 [markdown]',
        '# Test Markdown Cell',
        '# %% cell 3 [raw]',
        'Raw text content',
        '',
      ].join('\n'),
    );
  });

  it('a one-line change of a code cell rewrites that line and clears its outputs and count, nothing else', () => {
    const after = written(
      plan(scriptOf(patch('@@', "-print('Hello, World!')", "+print('Hello, patchsmith!')"))),
    );
    const expected = REAL.replace('"print(\'Hello, World!\')"', '"print(\'Hello, patchsmith!\')"')
      .replace('"execution_count": 1', '"execution_count": null')
      .replace(/"outputs": \[\n[\s\S]*?\n {3}\],/, '"outputs": [],');
    expect(after).toBe(expected);
    // Key order (`id` first, as the authors wrote it), indentation and final newline kept.
    expect(after.startsWith('{\n "cells": [\n  {\n   "id": "cell1",\n   "cell_type": "code",')).toBe(true);
  });

  it('a markdown edit through str_replace is a one-line diff, with the diff of the JSON file', () => {
    const result = plan(
      editsOf([{ command: 'str_replace', path: 'nb.ipynb', old_str: 'Test Markdown', new_str: 'Edited' }]),
    );
    const after = written(result);
    expect(after).toBe(REAL.replace('"# Test Markdown Cell"', '"# Edited Cell"'));
    if (!result.ok) return;
    expect(result.plan.files[0]).toMatchObject({
      path: 'nb.ipynb',
      op: 'update',
      additions: 1,
      deletions: 1,
    });
    expect(result.plan.files[0]!.diff).toContain('-    "# Test Markdown Cell"\n+    "# Edited Cell"\n');
    // The transaction checks the real file, not the view.
    expect(result.plan.writes[0]!.before!.bytes).toEqual(encoder.encode(REAL));
  });

  it('adds a cell (a marker without a number), in the notebook’s style, with a new id', () => {
    const after = written(
      plan(
        scriptOf(patch('@@ # %% cell 2 [markdown]', ' # Test Markdown Cell', '+# %% [code]', '+x = 1', '+x')),
      ),
    );
    const cells = JSON.parse(after).cells;
    expect(cells.map((c: { cell_type: string }) => c.cell_type)).toEqual(['code', 'markdown', 'code', 'raw']);
    expect(cells[2]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      cell_type: 'code',
      execution_count: null,
      metadata: {},
      outputs: [],
      source: ['x = 1\n', 'x'],
    });
    // The cells around it keep their bytes.
    const [head] = REAL.split('  {\n   "id": "cell3"');
    expect(after.startsWith(head!.replace(/\n$/, ''))).toBe(true);
    expect(after.endsWith(REAL.slice(REAL.indexOf('  {\n   "id": "cell3"')))).toBe(true);
  });

  it('removes a cell (its marker and lines) and moves one (its marker with its lines)', () => {
    const removed = written(
      plan(scriptOf(patch('@@', '-# %% cell 2 [markdown]', '-# Test Markdown Cell', ' # %% cell 3 [raw]'))),
    );
    expect(JSON.parse(removed).cells.map((c: { id: string }) => c.id)).toEqual(['cell1', 'cell3']);
    const moved = written(
      plan(
        scriptOf(
          patch(
            '@@',
            '-# %% cell 1 [code]',
            "-print('Hello, World!')",
            ' # %% cell 2 [markdown]',
            '@@',
            ' Raw text content',
            '+# %% cell 1 [code]',
            "+print('Hello, World!')",
          ),
        ),
      ),
    );
    const notebook = JSON.parse(moved);
    expect(notebook.cells.map((c: { id: string }) => c.id)).toEqual(['cell2', 'cell3', 'cell1']);
    // A moved cell that was not edited keeps its outputs.
    expect(notebook.cells[2].outputs).toEqual(JSON.parse(REAL).cells[0].outputs);
    expect(JSON.parse(moved).metadata).toEqual(JSON.parse(REAL).metadata);
  });

  it('converts a cell by its marker’s type, keeping its id and metadata', () => {
    const after = written(plan(scriptOf(patch('@@', '-# %% cell 3 [raw]', '+# %% cell 3 [markdown]'))));
    const cell = JSON.parse(after).cells[2];
    expect(cell).toEqual({ ...JSON.parse(REAL).cells[2], cell_type: 'markdown' });
  });

  it('a deleted notebook is deleted as read, its diff the JSON', () => {
    const result = plan(scriptOf('*** Begin Patch\n*** Delete File: nb.ipynb\n*** End Patch'));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.plan.writes[0]).toMatchObject({ after: null, before: { bytes: encoder.encode(REAL) } });
    expect(result.plan.files[0]!.diff).toContain('-    "# Test Markdown Cell"');
    expect(result.plan.files[0]!.deletions).toBe(REAL.split('\n').length - 1);
  });

  it('refuses a marker of a cell the notebook does not have, a cell twice, an unknown type', () => {
    for (const added of ['+# %% cell 9 [code]', '+# %% cell 1 [code]', '+# %% [sql]']) {
      const result = plan(scriptOf(patch('@@', ' Raw text content', added)));
      expect(result).toMatchObject({ ok: false, errors: [{ code: 'INVALID_EDIT', path: 'nb.ipynb' }] });
    }
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

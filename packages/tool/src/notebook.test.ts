/** Notebooks edited by cell through `runEdit` and `viewFile`, on a real notebook (nteract's examples) in a real git repository. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';
import { undoLast } from './undo.js';
import { viewFile } from './view-file.js';

/** nteract's intro notebook (nbformat 4.0): a markdown cell, then code cells with outputs and metadata. */
const REAL_PATH = createRequire(import.meta.url).resolve('@nteract/examples/python/intro.ipynb');

let root: string;
let real: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-notebook-'));
  real = await readFile(REAL_PATH, 'utf8');
  await writeFile(join(root, 'nb.ipynb'), real);
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'base'], { cwd: root });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
const onDisk = () => readFile(join(root, 'nb.ipynb'), 'utf8');
const patch = (...lines: string[]) => ({
  kind: 'patch' as const,
  text: ['*** Begin Patch', '*** Update File: nb.ipynb', ...lines, '*** End Patch'].join('\n'),
});

describe('a notebook edited by cell', () => {
  it('a str_replace in a markdown cell is a one-line diff in git', async () => {
    const report = await runEdit(
      {
        kind: 'edits',
        edits: [{ command: 'str_replace', path: 'nb.ipynb', old_str: 'Notable Nteract', new_str: 'Edited' }],
      },
      { root },
    );
    expect(report.ok).toBe(true);
    expect(git('diff', '--numstat')).toBe('1\t1\tnb.ipynb\n');
    const [title, ...rest] = JSON.parse(real).cells[0].source;
    expect(title).toBe('## The Notable Nteract Notebook\n');
    expect(JSON.parse(await onDisk()).cells[0].source).toEqual(['## The Edited Notebook\n', ...rest]);
    // What the report shows is the diff git shows.
    expect(report.files[0]!.diff).toContain(
      '-    "## The Notable Nteract Notebook\\n",\n+    "## The Edited Notebook\\n",',
    );
    expect(git('diff')).toContain(
      '-    "## The Notable Nteract Notebook\\n",\n+    "## The Edited Notebook\\n",',
    );
  });

  it('a Codex chunk on a code cell clears its outputs and count; undo brings the notebook back byte for byte', async () => {
    const report = await runEdit(patch('@@ # %% cell 4 [code]', '-thistextwillerror', "+print('Hi')"), {
      root,
    });
    expect(report.ok).toBe(true);
    const cells = JSON.parse(await onDisk()).cells;
    const was = JSON.parse(real).cells;
    expect(was[3]).toMatchObject({ execution_count: 3, outputs: [{ output_type: 'error' }] });
    expect(cells[3]).toEqual({ ...was[3], source: ["print('Hi')"], outputs: [], execution_count: null });
    // The other cells, outputs included, are as they were.
    expect(cells.filter((_: unknown, i: number) => i !== 3)).toEqual(
      was.filter((_: unknown, i: number) => i !== 3),
    );
    await undoLast({ root });
    expect(await onDisk()).toBe(real);
  });

  it('viewFile shows the cells, and an edit written from that view applies', async () => {
    const view = await viewFile({ root, path: 'nb.ipynb' });
    expect(view.ok && view.text).toContain('    16\t# %% cell 2 [code]\n    17\timport IPython\n');
    const report = await runEdit(
      patch('@@', ' # %% cell 4 [code]', ' thistextwillerror', '+# %% [markdown]', '+New *cell*'),
      { root },
    );
    expect(report.ok).toBe(true);
    const cells = JSON.parse(await onDisk()).cells;
    expect(cells).toHaveLength(7);
    // The notebook's cells have no ids (nbformat 4.0), so the new one gets none.
    expect(cells[4]).toEqual({ cell_type: 'markdown', metadata: {}, source: ['New *cell*'] });
    expect(cells[3]).toEqual(JSON.parse(real).cells[3]);
  });

  it('text that looks like JSON stays text: a source with quotes, brackets and backslashes', async () => {
    const sneaky = '"]}, {"cell_type": "code", "source": "import os\\\\"}';
    const report = await runEdit(patch('@@', ' ! ls ..', `+${sneaky}`), { root });
    expect(report.ok).toBe(true);
    const cells = JSON.parse(await onDisk()).cells;
    expect(cells).toHaveLength(6);
    expect(cells[2].source).toEqual(['! ls ..\n', sneaky]);
  });

  it('a broken cell edit (a cell twice) is refused and the tree stays byte-identical', async () => {
    const report = await runEdit(patch('@@', ' thistextwillerror', '+# %% cell 1 [markdown]'), { root });
    expect(report.errors).toMatchObject([{ code: 'INVALID_EDIT', path: 'nb.ipynb' }]);
    expect(await onDisk()).toBe(real);
    expect(git('status', '--porcelain')).toBe('');
  });

  it('a notebook that is a symlink out of the root is refused as any file is', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'patchsmith-notebook-out-'));
    try {
      await writeFile(join(outside, 'x.ipynb'), real);
      await symlink(join(outside, 'x.ipynb'), join(root, 'link.ipynb'));
      const report = await runEdit(
        {
          kind: 'edits',
          edits: [{ command: 'str_replace', path: 'link.ipynb', old_str: 'Notable', new_str: 'Cooked' }],
        },
        { root },
      );
      expect(report.errors).toMatchObject([{ code: 'PATH_OUTSIDE_ROOT' }]);
      expect(await readFile(join(outside, 'x.ipynb'), 'utf8')).toBe(real);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('a notebook changed since it was read is merged as text, never printed from a stale view', async () => {
    const view = await viewFile({ root, path: 'nb.ipynb' });
    if (!view.ok) throw new Error(view.message);
    await writeFile(join(root, 'nb.ipynb'), real.replace('"! ls .."', '"! ls -la .."'));
    const report = await runEdit(
      {
        kind: 'edits',
        edits: [
          {
            command: 'str_replace',
            path: 'nb.ipynb',
            old_str: 'The Notable Nteract Notebook',
            new_str: 'Merged',
          },
        ],
      },
      { root, readVersions: { 'nb.ipynb': { hash: view.hash! } } },
    );
    // The JSON text of both versions holds the markdown line: a clean three-way merge of the JSON.
    expect(report.ok).toBe(true);
    const cells = JSON.parse(await onDisk()).cells;
    expect(cells[0].source[0]).toBe('## Merged\n');
    expect(cells[2].source).toEqual(['! ls -la ..']);
  });
});

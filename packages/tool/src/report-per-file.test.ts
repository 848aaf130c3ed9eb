/** The report of many edits of one file, through `runEdit` on real files: one record, one line. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatApplyPatch, formatHuman, formatJson } from '@patchsmith/formatter';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-per-file-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('reports 50 str_replace edits of one file as one file with their totals', async () => {
  const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`);
  await writeFile(join(root, 'big.ts'), `${lines.join('\n')}\n`);
  await writeFile(join(root, 'small.ts'), 'x\n');
  const edits = [
    ...Array.from({ length: 50 }, (_, k) => ({
      command: 'str_replace' as const,
      path: 'big.ts',
      old_str: `line ${2 * k}\n`,
      new_str: `line ${2 * k} changed\nand one more\n`,
    })),
    { command: 'str_replace' as const, path: 'small.ts', old_str: 'x', new_str: 'y' },
  ];
  const report = await runEdit({ kind: 'edits', edits }, { root, snapshot: false });
  expect(report.errors).toStrictEqual([]);
  expect(report.files.map((f) => [f.path, f.additions, f.deletions, f.chunks.length])).toEqual([
    ['big.ts', 100, 50, 50],
    ['small.ts', 1, 1, 1],
  ]);
  expect(formatApplyPatch(report).stdout).toBe(
    'Success. Updated the following files:\nM big.ts\nM small.ts\n',
  );
  expect(formatHuman(report).match(/big\.ts/g)).toHaveLength(1);
  expect(JSON.parse(formatJson(report)).files).toHaveLength(2);
  expect((await readFile(join(root, 'big.ts'), 'utf8')).split('\n')).toHaveLength(151);
});

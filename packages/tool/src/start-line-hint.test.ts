/** Roo Code's `:start_line:` through `runEdit`: a hint that breaks ties between equal matches (SPEC §2). */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';
import { hashTree } from './test-support/hash-tree.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-start-line-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const text = (...lines: string[]) => `${lines.join('\n')}\n`;
const patch = (t: string) => runEdit({ kind: 'patch', text: t }, { root, snapshot: false });
const source = text('function a() {', '  return 0;', '}', '', 'function b() {', '  return 0;', '}');

/** Roo's apply_diff as a model writes it: a path, then blocks with their `:start_line:` header. */
const roo = (...blocks: [number, string, string][]) =>
  text(
    'src.ts',
    ...blocks.flatMap(([start, search, replace]) => [
      '<<<<<<< SEARCH',
      `:start_line:${start}`,
      '-------',
      search,
      '=======',
      replace,
      '>>>>>>> REPLACE',
    ]),
  );

describe('runEdit: :start_line: picks between equal matches', () => {
  it('edits the occurrence the hint names, in a reply of several blocks', async () => {
    await writeFile(join(root, 'src.ts'), source);
    const report = await patch(roo([6, '  return 0;', '  return 2;'], [2, '  return 0;', '  return 1;']));
    expect(report.errors).toStrictEqual([]);
    expect(report.files[0]!.chunks!.map((c) => c.line)).toStrictEqual([6, 2]);
    expect(await readFile(join(root, 'src.ts'), 'utf8')).toBe(
      text('function a() {', '  return 1;', '}', '', 'function b() {', '  return 2;', '}'),
    );
  });

  it('a hint halfway between is AMBIGUOUS with both lines, and nothing is written', async () => {
    await writeFile(join(root, 'src.ts'), source);
    const before = await hashTree(root);
    const report = await patch(roo([4, '  return 0;', '  return 9;']));
    expect(report.ok).toBe(false);
    expect(report.errors[0]).toMatchObject({ code: 'AMBIGUOUS', candidates: [2, 6] });
    expect(await hashTree(root)).toStrictEqual(before);
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewFile } from './view-file.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-view-cut-'));
  const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${'x'.repeat(60)}`);
  await writeFile(join(root, 'big.txt'), `${lines.join('\n')}\n`);
  await writeFile(join(root, 'wide.txt'), `${'y'.repeat(500)}\n`);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const heading = "Here's the result of running `cat -n` on big.txt:";

describe('viewFile with maxCharacters', () => {
  it('cuts a long file at a whole line and says which lines it showed and how to see more', async () => {
    const result = await viewFile({ root, path: 'big.txt', maxCharacters: 1000 });
    expect(result.ok && result.truncated).toBe(true);
    if (!result.ok) return;
    const lines = result.text.split('\n');
    expect(lines[0]).toBe(heading);
    const note = lines.at(-2)!;
    expect(note).toMatch(
      /^\[truncated at 1000 characters: showing lines 1-(\d+) of 5000; use view_range \[(\d+), -1\] to see more\]$/,
    );
    const [, last, next] = /lines 1-(\d+).*\[(\d+), -1\]/.exec(note)!;
    expect(Number(next)).toBe(Number(last) + 1);
    expect(lines.at(-3)).toBe(`${last!.padStart(6)}\tline ${last} ${'x'.repeat(60)}`);
    expect(result.text.length - note.length - 1).toBeLessThanOrEqual(1000);
  });

  it('cuts within a view_range, counting lines as the file numbers them', async () => {
    const result = await viewFile({ root, path: 'big.txt', view_range: [4000, -1], maxCharacters: 500 });
    if (!result.ok) throw new Error(result.message);
    expect(result.text.split('\n')[1]).toMatch(/^ {2}4000\tline 4000 /);
    expect(result.text).toMatch(/showing lines 4000-\d+ of 5000; use view_range \[\d+, -1\]/);
  });

  it('leaves a file that fits alone, and says so when even one line does not fit', async () => {
    const fits = await viewFile({ root, path: 'big.txt', view_range: [1, 2], maxCharacters: 1000 });
    expect(fits).toMatchObject({ ok: true });
    expect(fits.ok && fits.truncated).toBeFalsy();
    const wide = await viewFile({ root, path: 'wide.txt', maxCharacters: 200 });
    expect(wide.ok && wide.text).toContain(
      '[truncated: line 1 alone is longer than 200 characters; nothing shown]',
    );
  });

  it('never shows more than the limit before its note, and every line it shows is whole', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 60, max: 20_000 }), async (max) => {
        const result = await viewFile({ root, path: 'big.txt', maxCharacters: max });
        if (!result.ok) return false;
        const lines = result.text.split('\n');
        const shown = lines.slice(1, -2);
        const body = `${lines[0]}\n${shown.map((l) => `${l}\n`).join('')}`;
        return (
          body.length <= max &&
          shown.every((l, i) => l === `${String(i + 1).padStart(6)}\tline ${i + 1} ${'x'.repeat(60)}`)
        );
      }),
      { numRuns: 40 },
    );
  });
});

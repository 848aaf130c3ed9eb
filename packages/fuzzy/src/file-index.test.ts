import { LineModel } from '@patchsmith/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexFile, PARTIAL_MIN_LINES } from './file-index.js';
import { findBlock } from './find-block.js';
import { type LineKey, normalizeLine } from './normalize.js';

const KEYS: readonly LineKey[] = ['exact', 'trailing-whitespace', 'trimmed', 'lookalike'];

/** Short lines drawn from few pieces, so texts repeat and differ only by whitespace or look-alikes. */
const line = fc
  .array(fc.constantFrom('a', 'b', ' ', '\t', '\u2019', "'", '{', 'x = 1;', ''), { maxLength: 5 })
  .map((pieces) => pieces.join(''));

/** Filler lines that make a file large enough for partial tables; a few repeat, and one equals a test line. */
const PADDING = Array.from({ length: PARTIAL_MIN_LINES }, (_, i) =>
  i % 500 === 0 ? 'a' : `pad ${i % 1_000}`,
);

/** Where a normalised text occurs, by the table's ids and positions. */
function occurrences(table: ReturnType<ReturnType<typeof indexFile>['table']>, text: string): number[] {
  const id = table.ids.get(text);
  return id === undefined ? [] : Array.from(table.positions(id));
}

describe('indexFile with expected texts', () => {
  it('property: a partial table places every needed text where the full table does', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 40 }),
        fc.array(line, { maxLength: 8 }),
        fc.constantFrom(...KEYS),
        (body, expected, key) => {
          const lines = [...body, ...PADDING, ...body];
          const partial = indexFile(lines, expected);
          const full = indexFile(lines).table(key);
          const needed = expected.map((text) => normalizeLine(text, key));
          const table = partial.table(key, needed);
          for (const text of needed) expect(occurrences(table, text)).toEqual(occurrences(full, text));
          // Searches over its ids find the same blocks as over the full table's.
          const region = { from: 0, to: lines.length, atEnd: false };
          expect(findBlock(table, needed, region)).toEqual(findBlock(full, needed, region));
          expect(findBlock(table, needed.slice(0, 2), region)).toEqual(
            findBlock(full, needed.slice(0, 2), region),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: a file's LineModel (lines sliced on demand, any endings) is indexed as its lines' texts are", () => {
    const ending = fc.constantFrom('\n', '\r\n', '\r');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(line, ending), { maxLength: 40 }),
        fc.array(line, { maxLength: 8 }),
        fc.constantFrom(...KEYS),
        fc.boolean(),
        (body, expected, key, finalNewline) => {
          const texts = [...body.map(([t]) => t), ...PADDING, ...body.map(([t]) => t)];
          const endings = [...body.map(([, e]) => e), ...PADDING.map(() => '\n'), ...body.map(([, e]) => e)];
          let joined = texts.map((t, i) => t + endings[i]).join('');
          if (!finalNewline && !texts.at(-1)) joined += 'tail';
          else if (!finalNewline) joined = joined.replace(/(\r\n|\n|\r)$/, '');
          const model = LineModel.of(joined);
          const asTexts = Array.from({ length: model.length }, (_, i) => model.at(i)!);
          const needed = expected.map((text) => normalizeLine(text, key));
          const fromModel = indexFile(model, expected).table(key, needed);
          const fromTexts = indexFile(asTexts, expected).table(key, needed);
          for (const text of needed)
            expect(occurrences(fromModel, text)).toEqual(occurrences(fromTexts, text));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('hashes only the expected lines, and marks the others -1', () => {
    const file = indexFile(['a', 'b', 'a', 'c', ...PADDING], ['a', 'zzz']);
    const table = file.table('exact', ['a']);
    expect(Array.from(table.lineIds.subarray(0, 4))).toEqual([0, -1, 0, -1]);
    expect(table.positions(0)).toHaveLength(2 + PADDING.filter((l) => l === 'a').length);
    expect([...table.ids.keys()]).toEqual(['a']);
    // An expected text found nowhere is known to be absent.
    expect(file.table('exact', ['zzz']).ids.get('zzz')).toBeUndefined();
  });

  it('answers a search for an unexpected text with the full table', () => {
    const file = indexFile(['a', 'b', 'a', 'c', ...PADDING], ['a']);
    const table = file.table('exact', ['a', 'b']);
    expect(occurrences(table, 'b')).toEqual([1]);
    expect(Array.from(table.lineIds.subarray(0, 4))).toEqual([0, 1, 0, 2]);
    // Once built, the full table serves every later search.
    expect(file.table('exact', ['a'])).toBe(table);
    expect(file.table('exact')).toBe(table);
  });

  it('builds full tables for a small file, told or not', () => {
    const file = indexFile(['a', 'b', 'a'], ['a']);
    expect(Array.from(file.table('exact', ['a']).lineIds)).toEqual([0, 1, 0]);
  });

  it('finds a text whose fingerprint many other lines share', () => {
    // Same length and same sampled characters: only the full comparison tells them apart.
    const lines = Array.from({ length: 5_000 }, (_, i) => `x${String(i).padStart(4, '0')}yyyyyyyyyy`);
    const wanted = lines[1_234]!;
    const table = indexFile(lines, [wanted]).table('exact', [wanted]);
    expect(occurrences(table, wanted)).toEqual([1_234]);
    expect(table.ids.size).toBe(1);
  });
});

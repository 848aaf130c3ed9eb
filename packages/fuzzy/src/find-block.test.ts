import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { indexFile } from './file-index.js';
import { findBlock, lowerBound } from './find-block.js';

/** The obvious quadratic scan the index replaces. */
function naive(
  lines: readonly string[],
  block: readonly string[],
  from: number,
  to: number,
  atEnd: boolean,
): number[] {
  const starts: number[] = [];
  for (let s = from; s + block.length <= to; s++) {
    if (atEnd && s + block.length !== to) continue;
    if (block.every((line, j) => lines[s + j] === line)) starts.push(s);
  }
  return block.length === 0 ? [] : starts;
}

describe('findBlock', () => {
  test('finds exactly what a naive scan finds, both on the seed path and the KMP path', () => {
    const alphabet = fc.constantFrom('a', 'b', 'c', '');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }),
        fc.array(alphabet, { minLength: 1, maxLength: 5 }),
        fc.nat(70),
        fc.boolean(),
        (lines, block, from, atEnd) => {
          const table = indexFile(lines).table('exact');
          const region = { from: Math.min(from, lines.length), to: lines.length, atEnd };
          expect(findBlock(table, block, region)).toEqual(naive(lines, block, region.from, region.to, atEnd));
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a repetitive file goes through KMP and still finds every overlapping occurrence', () => {
    const lines = Array.from({ length: 5000 }, () => '}');
    const table = indexFile(lines).table('exact');
    const starts = findBlock(table, ['}', '}', '}', '}'], { from: 0, to: lines.length, atEnd: false });
    expect(starts.length).toBe(4997);
    expect(starts[4996]).toBe(4996);
  });

  test('a line absent from the file ends the search at once', () => {
    const table = indexFile(['a', 'b']).table('exact');
    expect(findBlock(table, ['a', 'zzz'], { from: 0, to: 2, atEnd: false })).toEqual([]);
  });
});

test('lowerBound', () => {
  expect(lowerBound([1, 3, 3, 5], 3)).toBe(1);
  expect(lowerBound([1, 3, 3, 5], 6)).toBe(4);
  expect(lowerBound([], 0)).toBe(0);
});

test('indexFile builds each table once, lazily', () => {
  const file = indexFile(['a ', 'a']);
  const table = file.table('trailing-whitespace');
  expect(file.table('trailing-whitespace')).toBe(table);
  expect([...table.positions(table.ids.get('a')!)]).toEqual([0, 1]);
  expect([...file.table('exact').lineIds]).toEqual([0, 1]);
});

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { indexFile } from './file-index.js';
import { findNearestRegion, lineSimilarity } from './nearest-region.js';

const WHOLE = (n: number) => ({ from: 0, to: n, atEnd: false });

describe('lineSimilarity', () => {
  test('is symmetric, within 0..1, and 1 for equal lines', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const s = lineSimilarity(a, b);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        expect(lineSimilarity(b, a)).toBeCloseTo(s, 12);
        expect(lineSimilarity(a, a)).toBe(1);
      }),
      { numRuns: 300 },
    );
  });

  test('a one-word change scores above an unrelated line', () => {
    const line = 'const total = items.reduce(sum, 0);';
    expect(lineSimilarity(line, 'const total = items.reduce(add, 0);')).toBeGreaterThan(
      lineSimilarity(line, 'return null;'),
    );
  });
});

describe('findNearestRegion', () => {
  test('prefers the window inside the search region on a tie', () => {
    const lines = ['alpha beta', 'x', 'alpha beta'];
    const nearest = findNearestRegion(indexFile(lines), ['alpha betaa'], { from: 1, to: 3, atEnd: false });
    expect(nearest?.startLine).toBe(3);
  });

  test('looks at the end of the file for an end-of-file chunk that shares nothing', () => {
    const lines = ['a', 'b', 'c', 'd'];
    const nearest = findNearestRegion(indexFile(lines), ['zz', 'yy'], { from: 0, to: 4, atEnd: true });
    expect(nearest).toMatchObject({ startLine: 3, endLine: 4, similarity: 0 });
    expect(nearest?.diff).toBe('-zz\n+c\n-yy\n+d');
  });

  test('stays bounded when every line shares the same tokens', () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `value = compute(value, ${i % 3});`);
    const nearest = findNearestRegion(indexFile(lines), ['value = compute(value, 7);'], WHOLE(lines.length));
    expect(nearest?.startLine).toBe(1);
    expect(nearest!.similarity).toBeGreaterThan(0.8);
  });

  test('the diff is cut for long regions', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    const expected = Array.from({ length: 100 }, (_, i) => `line ${i}x`);
    const nearest = findNearestRegion(indexFile(lines), expected, WHOLE(lines.length));
    expect(nearest!.diff.split('\n').length).toBeLessThanOrEqual(25);
    expect(nearest!.diff.endsWith('…')).toBe(true);
  });
});

describe('nearest region in a small file', () => {
  test('finds a line that shares no whole token with the expected one', () => {
    const file = indexFile(['alpha', 'beta', 'gamma']);
    const near = findNearestRegion(file, ['betta'], { from: 0, to: 3, atEnd: false });
    expect(near).toMatchObject({ startLine: 2, endLine: 2 });
  });
});

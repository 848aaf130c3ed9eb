import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PARTIAL_MIN_LINES } from './fingerprint.js';
import { indexLines } from './line-index.js';
import { type LineKey, normalizeLine } from './normalize.js';
import { occurrencesInLines } from './substring-table.js';
import type { TextLine } from './types.js';

const line = (text: string): TextLine => ({ text, ending: '\n' });

/** Where `text` stands (normalised by `key`), by looking at every line. */
function scan(lines: readonly TextLine[], text: string, key: LineKey = 'exact'): number[] {
  return lines.flatMap((l, i) => (normalizeLine(l.text, key) === text ? [i] : []));
}

const KEYS: readonly LineKey[] = ['exact', 'trailing-whitespace', 'trimmed', 'lookalike'];

describe('indexLines', () => {
  it('finds every line of a text, and follows splices', () => {
    const index = indexLines(['a', 'b', 'a', 'c'].map(line));
    expect(index.positionsOf('a')).toEqual([0, 2]);
    index.splice(1, 1, [line('a'), line('a')]);
    expect(Array.from({ length: index.lines.length }, (_, i) => index.texts.at(i))).toEqual([
      'a',
      'a',
      'a',
      'a',
      'c',
    ]);
    expect(index.positionsOf('a')).toEqual([0, 1, 2, 3]);
    index.splice(0, 3, []);
    expect(index.positionsOf('a')).toEqual([0]);
    expect(index.positionsOf('c')).toEqual([1]);
    expect(index.positionsOf('b')).toEqual([]);
  });

  it('does not change the lines it was given', () => {
    const given = ['a', 'b'].map(line);
    indexLines(given).splice(0, 2, []);
    expect(given.map((l) => l.text)).toEqual(['a', 'b']);
  });

  it('inserts more lines than a call can take as arguments', () => {
    const index = indexLines([line('x'), line('y')]);
    index.splice(
      1,
      0,
      Array.from({ length: 200_000 }, () => line('z')),
    );
    expect(index.lines.length).toBe(200_002);
    expect(index.positionsOf('y')).toEqual([200_001]);
  });

  it('agrees with a scan of the lines after any splices (the log and its rebuilds included)', () => {
    const text = fc.constantFrom('a', 'b', 'c', '');
    const splice = fc.record({
      at: fc.nat(40),
      removed: fc.nat(5),
      inserted: fc.array(text, { maxLength: 5 }),
    });
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 40 }),
        fc.array(splice, { maxLength: 1_100, size: 'max' }),
        (start, splices) => {
          const index = indexLines(start.map(line));
          const expected = start.map(line);
          for (const { at, removed, inserted } of splices) {
            const from = Math.min(at, expected.length);
            index.splice(from, removed, inserted.map(line));
            expected.splice(from, removed, ...inserted.map(line));
          }
          expect(Array.from({ length: index.lines.length }, (_, i) => index.lines.at(i))).toEqual(expected);
          for (const t of ['a', 'b', 'c', '']) {
            expect(index.positionsOf(t)).toEqual(scan(expected, t));
            expect(index.countOf(t, Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(
              scan(expected, t).length,
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('finds lines by a normalised text', () => {
    const index = indexLines(['a', 'a  ', '  a', '\u201cq\u201d', 'b'].map(line));
    expect(index.positionsOf('a', 'trailing-whitespace')).toEqual([0, 1]);
    expect(index.positionsOf('a', 'trimmed')).toEqual([0, 1, 2]);
    expect(index.positionsOf('"q"', 'lookalike')).toEqual([3]);
    index.splice(4, 1, [line(' a ')]);
    expect(index.positionsOf('a', 'trimmed')).toEqual([0, 1, 2, 4]);
    expect(index.positionsOf('a', 'trailing-whitespace')).toEqual([0, 1]);
  });

  it('told the expected texts of a large file, still answers every text and normalisation as a scan does', () => {
    const text = fc.constantFrom('a', 'a ', '  a', '\ta', 'b', '', '\u2018b\u2019');
    const splice = fc.record({
      at: fc.nat(PARTIAL_MIN_LINES + 40),
      removed: fc.nat(5),
      inserted: fc.array(text, { maxLength: 5 }),
    });
    // Distinct padding past the size where tables turn partial; the texts sit among it.
    const padding = Array.from({ length: PARTIAL_MIN_LINES }, (_, i) => `pad ${i}`);
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 40 }),
        fc.array(text, { maxLength: 3 }),
        fc.array(splice, { maxLength: 30 }),
        fc.array(fc.tuple(fc.constantFrom(...KEYS), text), { minLength: 1, maxLength: 6 }),
        (start, expectedTexts, splices, lookups) => {
          const startLines = [...padding.slice(0, 1_000), ...start, ...padding.slice(1_000)].map(line);
          const index = indexLines(startLines, expectedTexts);
          const expected = startLines.slice();
          // Lookups between splices, so tables are built at different points of the log.
          for (const [k, { at, removed, inserted }] of splices.entries()) {
            const from = Math.min(at, expected.length);
            index.splice(from, removed, inserted.map(line));
            expected.splice(from, removed, ...inserted.map(line));
            const [key, raw] = lookups[k % lookups.length]!;
            const wanted = normalizeLine(raw, key);
            expect(index.positionsOf(wanted, key)).toEqual(scan(expected, wanted, key));
          }
          for (const [key, raw] of lookups) {
            const wanted = normalizeLine(raw, key);
            expect(index.positionsOf(wanted, key)).toEqual(scan(expected, wanted, key));
            expect(index.countOf(wanted, Number.POSITIVE_INFINITY, key)).toBeGreaterThanOrEqual(
              scan(expected, wanted, key).length,
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('finds texts within lines as a scan does, many texts in one pass, across splices', () => {
    // Long enough to be found by their anchors; repeats make overlapping occurrences.
    const text = fc.constantFrom(
      'abcdefghij',
      'xxabcdefghyy',
      'aaaaaaaaaaaa',
      'abcdabcdabcdabcd',
      'short',
      '',
    );
    const wanted = fc.constantFrom(
      'abcdefgh',
      'bcdefghij',
      'aaaaaaaa',
      'abcdabcdab',
      'xxabcdefghyy',
      'none of it',
      'cdef',
    );
    const splice = fc.record({
      at: fc.nat(30),
      removed: fc.nat(4),
      inserted: fc.array(text, { maxLength: 4 }),
    });
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 30 }),
        fc.array(wanted, { maxLength: 4 }),
        fc.array(fc.tuple(splice, wanted), { maxLength: 20 }),
        fc.boolean(),
        (start, told, steps, padded) => {
          // Padded past MIN_TABLE_TEXTS, the texts are found through the table; else each is scanned for.
          const fillers = padded ? Array.from({ length: 8 }, (_, k) => `filler ${k} text`) : [];
          const index = indexLines(start.map(line), [], [...told, ...fillers]);
          const expected = start.map(line);
          for (const [{ at, removed, inserted }, query] of steps) {
            const from = Math.min(at, expected.length);
            index.splice(from, removed, inserted.map(line));
            expected.splice(from, removed, ...inserted.map(line));
            expect(index.substringsOf(query)).toEqual(
              occurrencesInLines(
                expected.map((l) => l.text),
                query,
              ),
            );
          }
          for (const query of told)
            expect(index.substringsOf(query)).toEqual(
              occurrencesInLines(
                expected.map((l) => l.text),
                query,
              ),
            );
        },
      ),
      { numRuns: 300 },
    );
  });
});

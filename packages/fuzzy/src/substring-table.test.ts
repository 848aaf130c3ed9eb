import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANCHOR_WIDTH, buildSubstringTable, occurrencesInLines } from './substring-table.js';
import type { TextLine } from './types.js';

const line = (text: string): TextLine => ({ text, ending: '\n' });
const texts = (lines: readonly TextLine[]) => lines.map((l) => l.text);

/** Line and column pairs of every occurrence, by a scan. */
const scanned = (lines: readonly TextLine[], text: string) =>
  occurrencesInLines(texts(lines), text).flatMap((s) => [s.line, s.column]);

describe('buildSubstringTable', () => {
  it('has every occurrence of a text among its candidates, in order', () => {
    const char = fc.constantFrom('a', 'b', ' ', '\u00e9', '\u{1F600}');
    fc.assert(
      fc.property(
        fc.array(
          fc.array(char, { maxLength: 30 }).map((cs) => cs.join('')),
          { maxLength: 20 },
        ),
        fc.array(
          fc.array(char, { minLength: ANCHOR_WIDTH, maxLength: 14 }).map((cs) => cs.join('')),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        (texts, wanted) => {
          const lines = texts.map(line);
          const table = buildSubstringTable(texts, wanted);
          for (const text of wanted) {
            expect(table.covers(text)).toBe(true);
            const candidates = table.candidates(text);
            const confirmed: number[] = [];
            for (let k = 0; k < candidates.length; k += 3) {
              if (lines[candidates[k]!]!.text.startsWith(text, candidates[k + 1]!))
                confirmed.push(candidates[k]!, candidates[k + 1]!);
            }
            expect(confirmed).toEqual(scanned(lines, text));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves short texts and texts with a line break to a scan', () => {
    const table = buildSubstringTable(['abcdefghijkl'], ['abc', 'abcdefgh\nij', 'bcdefghi']);
    expect([table.covers('abc'), table.covers('abcdefgh\nij'), table.covers('bcdefghi')]).toEqual([
      false,
      false,
      true,
    ]);
    expect(table.candidates('bcdefghi')).toEqual([0, 1, 0]);
  });
});

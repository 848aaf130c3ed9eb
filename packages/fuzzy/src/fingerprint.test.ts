/** `TextSet.scanLines` finds exactly the lines whose normalised text is in the set, as `has` would say line by line. */
import { LineModel } from '@patchsmith/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SpanKey, textSet } from './fingerprint.js';
import { normalizeLine } from './normalize.js';

/** Line texts of any length (the fingerprint reads characters spread through a line), some repeated. */
const lineText = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', 'é', '}'), maxLength: 40 }),
  fc.constantFrom('', '  x', 'x  ', '    const value = 1;', 'abcdefghijklmnopqrstuvwxyz'),
);
const ending = fc.constantFrom('\n', '\r\n', '\r');

describe('TextSet.scanLines', () => {
  it('property: the lines found, and their texts, are those whose normalised text the set has', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(lineText, ending), { maxLength: 30 }),
        fc.boolean(),
        fc.array(lineText, { maxLength: 6 }),
        fc.constantFrom<SpanKey>('exact', 'trailing-whitespace', 'trimmed'),
        fc.integer({ min: 0, max: 100 }),
        (lines, lastEnds, extra, key, pick) => {
          const text = lines.map(([t, e], i) => (i === lines.length - 1 && !lastEnds ? t : t + e)).join('');
          const model = LineModel.of(text);
          // Some texts of the file itself (so there are hits) and some others.
          const picked = lines.filter((_, i) => (i * 37 + pick) % 3 === 0).map(([t]) => t);
          const set = textSet([...picked, ...extra].map((t) => normalizeLine(t, key)));
          const found: [number, string][] = [];
          set.scanLines(model, key, (i, t) => found.push([i, t]));
          const expected: [number, string][] = [];
          for (let i = 0; i < model.length; i++) {
            const normalized = normalizeLine(model.at(i)!, key);
            if (set.has(normalized)) expected.push([i, normalized]);
          }
          expect(found).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});

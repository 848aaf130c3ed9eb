import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endsWithLineBreak, textLines, withEnding } from './text-lines.js';

describe('textLines', () => {
  it.each([
    ['', []],
    ['\n', ['']],
    ['a', ['a']],
    ['a\n', ['a']],
    ['a\n\n', ['a', '']],
    ['a\r\nb\rc\nd', ['a', 'b', 'c', 'd']],
    ['a\r\n', ['a']],
  ])('%j is %j', (text, lines) => {
    expect(textLines(text)).toEqual(lines);
  });

  it('property: joining the lines with one ending, plus a final one, gives back the text in that ending', () => {
    const line = fc.string({ unit: fc.constantFrom('a', 'b', ' ') });
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        (lines, ending) => {
          const text = lines.join(ending) + ending;
          expect(textLines(text)).toEqual(lines);
          expect(textLines(withEnding(text, '\n'))).toEqual(lines);
          expect(endsWithLineBreak(text)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

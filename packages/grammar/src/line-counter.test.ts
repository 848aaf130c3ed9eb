import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forwardLineCounter } from './line-counter.js';

/** The line of an offset by counting every newline before it. */
function naiveLine(body: string, firstLine: number, offset: number): number {
  let line = firstLine;
  for (let i = 0; i < offset && i < body.length; i++) if (body[i] === '\n') line++;
  return line;
}

describe('forwardLineCounter', () => {
  it('counts lines from the first line, a newline belonging to the line it ends', () => {
    const lineOf = forwardLineCounter('ab\ncd\n\nef', 5);
    expect([0, 1, 2, 3, 5, 6, 7, 8, 9].map(lineOf)).toEqual([5, 5, 5, 6, 6, 7, 8, 8, 8]);
  });

  it('goes back to earlier offsets, down to the first line', () => {
    const lineOf = forwardLineCounter('\n\nx\n', 1);
    expect([4, 0, 3, 1, 2, 0].map(lineOf)).toEqual([4, 1, 3, 2, 3, 1]);
  });

  it('property: any sequence of offsets, forwards or back, gives the lines a full count gives', () => {
    const body = fc
      .array(fc.constantFrom('a', 'bc', '\n', '\n\n', ' ', '\r\n'), { maxLength: 40 })
      .map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(
        body,
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.nat({ max: 100 }), { maxLength: 30 }),
        (text, firstLine, offsets) => {
          const lineOf = forwardLineCounter(text, firstLine);
          for (const raw of offsets) {
            const offset = raw % (text.length + 1);
            expect(lineOf(offset)).toBe(naiveLine(text, firstLine, offset));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

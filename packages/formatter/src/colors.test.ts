/** Our styles write exactly what picocolors writes, nested styles included. */
import fc from 'fast-check';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { createColors } from './colors.js';

const NAMES = ['bold', 'dim', 'red', 'green', 'yellow', 'cyan'] as const;

describe('createColors', () => {
  it('property: each style, and styles nested in styles, as picocolors writes them', () => {
    const ours = createColors(true);
    const theirs = pc.createColors(true);
    const piece = fc.constantFrom('a', ' ', '\x1b[39m', '\x1b[22m', '\x1b[1m', '-x', '');
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
        fc.array(piece, { maxLength: 6 }),
        (styles, pieces) => {
          let a = pieces.join('');
          let b = a;
          for (const name of styles) {
            a = ours[name](a);
            b = theirs[name](b);
          }
          expect(a).toBe(b);
        },
      ),
    );
  });

  it('off, every style is the text itself', () => {
    const off = createColors(false);
    for (const name of NAMES) expect(off[name]('text')).toBe(pc.createColors(false)[name]('text'));
  });
});

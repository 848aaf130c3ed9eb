import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeAddedText } from './added-diff.js';
import { describeChange } from './diff.js';

const encoder = new TextEncoder();
/** Lines of a small alphabet that holds every character the general path reads otherwise. */
const anyText = fc
  .array(fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r', '\0', '\uFEFF', '\uD800', '😀', 'é', '\\'), {
    maxLength: 40,
  })
  .map((parts) => parts.join(''));
const plainText = fc
  .array(fc.constantFrom('a', 'b', ' ', '\t', '\n', 'é', '\\', '+', '-', '@'), {
    minLength: 1,
    maxLength: 40,
  })
  .map((parts) => parts.join(''));
const path = fc.constantFrom('a.txt', 'dir/b c.ts', 'x\ty');

describe('describeAddedText', () => {
  it('is describeChange of the encoded text against nothing, whenever it answers', () => {
    fc.assert(
      fc.property(path, anyText, (name, text) => {
        const fast = describeAddedText(name, text);
        if (fast !== null) expect(fast).toEqual(describeChange(name, name, null, encoder.encode(text)));
      }),
    );
  });

  it('answers for every non-empty text without CR, NUL, BOM or surrogate', () => {
    fc.assert(
      fc.property(path, plainText, (name, text) => {
        expect(describeAddedText(name, text)).toEqual(describeChange(name, name, null, encoder.encode(text)));
      }),
    );
  });

  it('leaves to describeChange what it would read otherwise', () => {
    for (const text of ['', 'a\r\nb\n', 'a\0b\n', '\uFEFFa\n', 'a\uD800\n'])
      expect(describeAddedText('a.txt', text)).toBeNull();
  });
});

import fc from 'fast-check';
import { expect, it } from 'vitest';
import { sameBytes } from './same-bytes.js';

it('agrees with an element-wise comparison, views into larger buffers included', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ maxLength: 40 }),
      fc.uint8Array({ maxLength: 40 }),
      fc.nat(8),
      (a, b, pad) => {
        const inBigger = new Uint8Array(a.length + 2 * pad);
        inBigger.set(a, pad);
        const viewOfA = inBigger.subarray(pad, pad + a.length);
        const expected = a.length === b.length && a.every((x, i) => x === b[i]);
        expect(sameBytes(viewOfA, b)).toBe(expected);
        expect(sameBytes(viewOfA, a)).toBe(true);
      },
    ),
  );
});

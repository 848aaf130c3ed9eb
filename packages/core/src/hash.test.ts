import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashBytes } from './hash.js';

describe('hashBytes', () => {
  it('is the sha256 hex digest', () => {
    expect(hashBytes(new Uint8Array())).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(hashBytes(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('property: equal bytes hash equal, whatever the view they come in', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(hashBytes(Buffer.from(bytes))).toBe(createHash('sha256').update(bytes).digest('hex'));
      }),
      { numRuns: 100 },
    );
  });
});

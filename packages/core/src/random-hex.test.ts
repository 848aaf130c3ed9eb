import { expect, it } from 'vitest';
import { randomHex } from './random-hex.js';

it('gives exactly the hex digits asked for, different each time', () => {
  for (const length of [1, 8, 12, 24, 33])
    expect(randomHex(length)).toMatch(new RegExp(`^[0-9a-f]{${length}}$`));
  const seen = new Set(Array.from({ length: 1000 }, () => randomHex(24)));
  expect(seen.size).toBe(1000);
});

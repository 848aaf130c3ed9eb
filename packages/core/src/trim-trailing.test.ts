import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trimTrailing } from './trim-trailing.js';

describe('trimTrailing', () => {
  it('removes only the run of the given characters at the end', () => {
    expect(trimTrailing('a b \r \r', ' \r')).toBe('a b');
    expect(trimTrailing('\r\r', ' \r')).toBe('');
    expect(trimTrailing('a\rb', ' \r')).toBe('a\rb');
    expect(trimTrailing('', '/')).toBe('');
    expect(trimTrailing('dir///', '/')).toBe('dir');
  });

  it('agrees with the regular expression it replaces (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\r', '\n', '/', 'é') }), (text) => {
        expect(trimTrailing(text, ' \r')).toBe(text.replace(/[ \r]+$/, ''));
        expect(trimTrailing(text, '/')).toBe(text.replace(/\/+$/, ''));
        expect(trimTrailing(text, '\r\n')).toBe(text.replace(/[\r\n]+$/, ''));
      }),
      { numRuns: 300 },
    );
  });

  it('takes one pass over a long run that a regular expression retries from every position', () => {
    const line = `${'\r'.repeat(200_000)}x`;
    expect(trimTrailing(line, ' \r')).toBe(line);
  });
});

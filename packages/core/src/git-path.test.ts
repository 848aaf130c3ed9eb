import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quotePath, readQuotedPath } from './git-path.js';

describe('git path quoting', () => {
  it('quotes as git does (core.quotePath): C escapes and octal UTF-8 bytes', () => {
    expect(quotePath('plain/name.txt')).toBe('plain/name.txt');
    expect(quotePath('a/café "x".txt')).toBe('"a/caf\\303\\251 \\"x\\".txt"');
    expect(quotePath('tab\there')).toBe('"tab\\there"');
  });

  it('property: reading a quoted path gives back the path and the rest of the line', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1 }), fc.string(), (path, rest) => {
        const quoted = `"${quotePath(path).replace(/^"|"$/g, '')}"`;
        expect(readQuotedPath(quoted + rest)).toEqual({ path, rest });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a quoted path whose octal bytes are not UTF-8, or that is not closed', () => {
    expect(readQuotedPath('"\\377"')).toBeNull();
    expect(readQuotedPath('"open')).toBeNull();
  });
});

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { foldLookalikes, leadingWhitespace, normalizeLine, trimmedEnd, trimmedStart } from './normalize.js';

/** Every code point of SPEC §2 pass 5 and what it folds to. */
const TABLE: [number, string][] = [
  ...[0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212].map((c): [number, string] => [c, '-']),
  ...[0x2018, 0x2019, 0x201a, 0x201b].map((c): [number, string] => [c, "'"]),
  ...[0x201c, 0x201d, 0x201e, 0x201f].map((c): [number, string] => [c, '"']),
  ...[
    0x00a0, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x202f, 0x205f, 0x3000,
  ].map((c): [number, string] => [c, ' ']),
  [0x2026, '...'],
  [0xfeff, ''],
];

describe('foldLookalikes', () => {
  test.each(TABLE)('U+%s folds', (code, ascii) => {
    expect(foldLookalikes(`a${String.fromCodePoint(code)}b`)).toBe(`a${ascii}b`);
  });

  test('characters next to the table are kept', () => {
    for (const code of [0x200f, 0x2016, 0x2017, 0x2020, 0x2000, 0x2001, 0x200b, 0x2213, 0x2027]) {
      const text = `a${String.fromCodePoint(code)}b`;
      expect(foldLookalikes(text)).toBe(text);
    }
  });

  test('is idempotent and leaves text without look-alikes unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const once = foldLookalikes(text);
        expect(foldLookalikes(once)).toBe(once);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), (text) => {
        expect(foldLookalikes(text)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});

describe('normalizeLine', () => {
  test('each key', () => {
    const line = '\u00a0 x \u2013 y\t ';
    expect(normalizeLine(line, 'exact')).toBe(line);
    expect(normalizeLine(line, 'trailing-whitespace')).toBe('\u00a0 x \u2013 y');
    expect(normalizeLine(line, 'trimmed')).toBe('x \u2013 y');
    expect(normalizeLine(line, 'lookalike')).toBe('x - y');
  });

  test('each key is coarser than the one before it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        const keys = ['exact', 'trailing-whitespace', 'trimmed', 'lookalike'] as const;
        for (let k = 1; k < keys.length; k++) {
          if (normalizeLine(a, keys[k - 1]!) === normalizeLine(b, keys[k - 1]!)) {
            expect(normalizeLine(a, keys[k]!)).toBe(normalizeLine(b, keys[k]!));
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

test('leadingWhitespace', () => {
  expect(leadingWhitespace('\t  x ')).toBe('\t  ');
  expect(leadingWhitespace('x')).toBe('');
  expect(leadingWhitespace('   ')).toBe('   ');
});

describe('trimmedStart, trimmedEnd', () => {
  test('every BMP character is trimmed exactly when String#trim trims it', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const text = `x${String.fromCharCode(code)}`;
      const trimmed = text.slice(1).trim();
      expect(text.slice(trimmedStart(text, 1, 2), 2)).toBe(trimmed);
      expect(text.slice(1, trimmedEnd(text, 1, 2))).toBe(trimmed);
    }
  });

  test('property: the span of a line inside a larger text trimmed is where its trimmed text stands', () => {
    const piece = fc.constantFrom('a', ' ', '\t', '\u00a0', '\u3000', '\ufeff', 'é', '\u2028', 'bc');
    const line = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''));
    fc.assert(
      fc.property(line, line, line, (before, text, after) => {
        const whole = before + text + after;
        const from = before.length;
        const to = from + text.length;
        const end = trimmedEnd(whole, from, to);
        expect(whole.slice(from, end)).toBe(text.trimEnd());
        expect(whole.slice(trimmedStart(whole, from, end), end)).toBe(text.trim());
      }),
      { numRuns: 300 },
    );
  });
});

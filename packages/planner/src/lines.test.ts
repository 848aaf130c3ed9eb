import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeText,
  encodeText,
  firstEnding,
  hasFinalNewline,
  joinLines,
  settleEndings,
  splitLines,
} from './lines.js';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('splitLines', () => {
  it.each([
    ['', []],
    ['a', [{ text: 'a', ending: '' }]],
    ['a\n', [{ text: 'a', ending: '\n' }]],
    [
      'a\r\nb',
      [
        { text: 'a', ending: '\r\n' },
        { text: 'b', ending: '' },
      ],
    ],
    [
      'a\rb\r',
      [
        { text: 'a', ending: '\r' },
        { text: 'b', ending: '\r' },
      ],
    ],
    [
      '\n\n',
      [
        { text: '', ending: '\n' },
        { text: '', ending: '\n' },
      ],
    ],
    [
      '\r\r\n',
      [
        { text: '', ending: '\r' },
        { text: '', ending: '\r\n' },
      ],
    ],
    [
      'one\r\ntwo\rthree\nfour\r\n',
      [
        { text: 'one', ending: '\r\n' },
        { text: 'two', ending: '\r' },
        { text: 'three', ending: '\n' },
        { text: 'four', ending: '\r\n' },
      ],
    ],
  ])('%j', (text, lines) => {
    expect(splitLines(text)).toEqual(lines);
  });

  it('property: joining the lines back gives the same text, and no line text holds a line break', () => {
    const piece = fc.constantFrom('a', 'bc', ' ', '\t', 'é', '\r', '\n', '\r\n', '\n\r', '');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        const lines = splitLines(text);
        expect(joinLines(lines)).toBe(text);
        for (const line of lines.slice(0, -1)) expect(line.ending).not.toBe('');
        for (const line of lines) expect(line.text).not.toMatch(/[\r\n]/);
      }),
      { numRuns: 300 },
    );
  });

  it('property: decoding then encoding a text file gives the same bytes (BOM and endings included)', () => {
    const piece = fc.constantFrom('x', 'ü', '€', '😀', '\r', '\n', '\r\n', '\t', ' ');
    fc.assert(
      fc.property(fc.boolean(), fc.array(piece, { maxLength: 40 }), (bom, pieces) => {
        const original = new TextEncoder().encode((bom ? '\uFEFF' : '') + pieces.join(''));
        const decoded = decodeText(original);
        expect(decoded).not.toBeNull();
        if (decoded) {
          expect(decoded.bom).toBe(bom);
          expect(encodeText(decoded)).toEqual(original);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('decodeText', () => {
  it('removes a BOM and remembers it', () => {
    expect(decodeText(bytes(0xef, 0xbb, 0xbf, 0x61, 0x0a))).toEqual({
      bom: true,
      lines: [{ text: 'a', ending: '\n' }],
    });
    expect(decodeText(bytes(0x61))).toEqual({ bom: false, lines: [{ text: 'a', ending: '' }] });
  });

  it.each([
    ['invalid UTF-8', bytes(0x61, 0xff, 0x0a)],
    ['a truncated sequence', bytes(0x61, 0xe2, 0x82)],
    ['a NUL byte', bytes(0x61, 0x00, 0x62)],
    ['an overlong encoding', bytes(0xc0, 0xaf)],
  ])('refuses %s as binary', (_why, content) => {
    expect(decodeText(content)).toBeNull();
  });
});

describe('endings', () => {
  it('new lines take the first ending, LF when there is none', () => {
    expect(firstEnding(splitLines('a\r\nb\n'))).toBe('\r\n');
    expect(firstEnding(splitLines('a\rb\r\n'))).toBe('\r');
    expect(firstEnding(splitLines('a'))).toBe('\n');
    expect(firstEnding([])).toBe('\n');
  });

  it('an empty file counts as ending with a newline', () => {
    expect(hasFinalNewline([])).toBe(true);
    expect(hasFinalNewline(splitLines('a\n'))).toBe(true);
    expect(hasFinalNewline(splitLines('a\nb'))).toBe(false);
  });

  it('settleEndings terminates inner lines and follows the final-newline state', () => {
    const lines = [
      { text: 'a', ending: '' as const },
      { text: 'b', ending: '\r\n' as const },
    ];
    expect(joinLines(settleEndings(lines, '\r\n', false))).toBe('a\r\nb');
    expect(joinLines(settleEndings(lines, '\n', true))).toBe('a\nb\r\n');
    expect(joinLines(settleEndings([{ text: 'x', ending: '' }], '\r', true))).toBe('x\r');
    expect(settleEndings([], '\n', false)).toEqual([]);
  });
});

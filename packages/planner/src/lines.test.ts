import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeText,
  encodeText,
  encodeTextChecked,
  encodeUtf8,
  firstEnding,
  hasFinalNewline,
  joinLines,
  type Line,
  type LineEnding,
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

  it('property: equals the regex splitter it replaced, on random text with mixed endings', () => {
    // The former implementation, kept as the oracle: one sticky regex match per line.
    const regexSplit = (text: string): Line[] => {
      const pattern = /([^\r\n]*)(\r\n|\n|\r|$)/y;
      const lines: Line[] = [];
      while (pattern.lastIndex < text.length) {
        const match = pattern.exec(text);
        if (match === null) break;
        lines.push({ text: match[1] ?? '', ending: (match[2] ?? '') as LineEnding });
      }
      return lines;
    };
    const piece = fc.constantFrom(
      'a',
      'long line text',
      ' ',
      '\t',
      'é',
      '😀',
      '\r',
      '\n',
      '\r\n',
      '\n\r',
      '\r\r',
      '',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        expect(splitLines(text)).toEqual(regexSplit(text));
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

describe('encodeUtf8', () => {
  it('property: writes what TextEncoder writes, lone surrogates included, large texts too', () => {
    const piece = fc.constantFrom('a', 'é', '€', '😀', '\ud800', '\udc00', '\n', '\0');
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.nat({ max: 70_000 }), (pieces, pad) => {
        // Some texts cross the size where Buffer takes over.
        const text = 'x'.repeat(pad) + pieces.join('');
        const bytes = encodeUtf8(text);
        expect(bytes).toBeInstanceOf(Uint8Array);
        expect(Buffer.from(bytes).equals(Buffer.from(encoder.encode(text)))).toBe(true);
        expect(bytes.byteLength).toBe(bytes.buffer.byteLength);
      }),
      { numRuns: 100 },
    );
  });
});

describe('encodeTextChecked', () => {
  it('property: says the bytes decode back to the lines exactly when they do', () => {
    const text = fc.constantFrom('', 'a', '\uFEFFb', 'c\r', 'd\ne', '\0', '\ud800', 'é');
    const ending = fc.constantFrom('', '\n', '\r\n', '\r');
    const line = fc.record({ text, ending }) as fc.Arbitrary<Line>;
    fc.assert(
      fc.property(fc.boolean(), fc.array(line, { maxLength: 8 }), (bom, lines) => {
        const { bytes, decodesBack } = encodeTextChecked({ bom, lines });
        expect(Buffer.from(bytes).equals(Buffer.from(encodeText({ bom, lines })))).toBe(true);
        const decoded = decodeText(bytes);
        const same =
          decoded !== null && decoded.bom === bom && JSON.stringify(decoded.lines) === JSON.stringify(lines);
        expect(decodesBack).toBe(same);
      }),
      { numRuns: 300 },
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

describe('splitLines on a concatenated (rope) string', () => {
  it('splits text built by += the same as the flat text', () => {
    let rope = '';
    for (let i = 0; i < 2_000; i++) rope += `line ${i}${i % 3 === 0 ? '\r\n' : i % 3 === 1 ? '\n' : '\r'}`;
    const flat = rope.split('').join('');
    expect(splitLines(rope)).toEqual(splitLines(flat));
    expect(joinLines(splitLines(rope))).toBe(flat);
  });
});

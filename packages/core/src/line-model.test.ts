import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Line, type LineEnding, LineModel } from './line-model.js';
import { decodeText, encodeString, encodeText, encodeUtf8, readsBack } from './text-codec.js';

const bytes = (...values: number[]) => new Uint8Array(values);

/** The splitter the model replaced, as the oracle: one sticky regex match per line. */
function regexSplit(text: string): Line[] {
  const pattern = /([^\r\n]*)(\r\n|\n|\r|$)/y;
  const lines: Line[] = [];
  while (pattern.lastIndex < text.length) {
    const match = pattern.exec(text);
    if (match === null) break;
    lines.push({ text: match[1] ?? '', ending: (match[2] ?? '') as LineEnding });
  }
  return lines;
}

/** Text of every kind of line break, lone CRs, a BOM, astral characters, no final newline, or empty. */
const anyText = fc
  .array(
    fc.constantFrom(
      'a',
      'long line text',
      ' ',
      '\t',
      'é',
      '😀',
      '\uFEFF',
      '\r',
      '\n',
      '\r\n',
      '\n\r',
      '\r\r',
      '',
    ),
    { maxLength: 60 },
  )
  .map((pieces) => pieces.join(''));

describe('LineModel', () => {
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
    expect(LineModel.of(text).toLines()).toEqual(lines);
  });

  it('property: the lines equal the regex splitter, and joined back (with their endings) give the same text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const model = LineModel.of(text);
        const lines = model.toLines();
        expect(lines).toEqual(regexSplit(text));
        expect(lines.map((l) => l.text + l.ending).join('')).toBe(text);
        expect(model.raw(0, model.length)).toBe(text);
        for (let i = 0; i < model.length; i++) {
          expect(model.starts[i]! + lines[i]!.text.length).toBe(model.textEnd(i));
          expect(model.raw(i, i + 1)).toBe(lines[i]!.text + lines[i]!.ending);
        }
        for (const line of lines.slice(0, -1)) expect(line.ending).not.toBe('');
        for (const line of lines) expect(line.text).not.toMatch(/[\r\n]/);
        expect(model.at(model.length)).toBeUndefined();
        expect(model.at(-1)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('property: decoding then encoding any text file gives the same bytes (BOM, CRLF, lone CR, no final newline, empty)', () => {
    fc.assert(
      fc.property(fc.boolean(), anyText, (bom, text) => {
        const original = new TextEncoder().encode((bom ? '\uFEFF' : '') + text);
        const decoded = decodeText(original);
        expect(decoded).not.toBeNull();
        // A text of its own that starts with U+FEFF reads as a BOM too: the bytes are the same.
        expect((decoded!.bom ? '\uFEFF' : '') + decoded!.lines.text).toBe((bom ? '\uFEFF' : '') + text);
        expect(Buffer.from(encodeText(decoded!)).equals(Buffer.from(original))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('new lines take the first ending, LF when there is none; an empty text counts as terminated', () => {
    expect(LineModel.of('a\r\nb\n').firstEnding()).toBe('\r\n');
    expect(LineModel.of('a\rb\r\n').firstEnding()).toBe('\r');
    expect(LineModel.of('a').firstEnding()).toBe('\n');
    expect(LineModel.of('').firstEnding()).toBe('\n');
    expect(LineModel.of('').hasFinalNewline()).toBe(true);
    expect(LineModel.of('a\n').hasFinalNewline()).toBe(true);
    expect(LineModel.of('a\r').hasFinalNewline()).toBe(true);
    expect(LineModel.of('a\nb').hasFinalNewline()).toBe(false);
  });

  it('splits text built by += (a rope) the same as the flat text', () => {
    let rope = '';
    for (let i = 0; i < 2_000; i++) rope += `line ${i}${i % 3 === 0 ? '\r\n' : i % 3 === 1 ? '\n' : '\r'}`;
    const flat = rope.split('').join('');
    expect(LineModel.of(rope).toLines()).toEqual(LineModel.of(flat).toLines());
    expect(LineModel.of(rope).length).toBe(2_000);
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
        const encoded = encodeUtf8(text);
        expect(encoded).toBeInstanceOf(Uint8Array);
        expect(Buffer.from(encoded).equals(Buffer.from(encoder.encode(text)))).toBe(true);
        expect(encoded.byteLength).toBe(encoded.buffer.byteLength);
      }),
      { numRuns: 100 },
    );
  });
});

describe('readsBack', () => {
  it('property: says the bytes decode back to the same text and BOM exactly when they do', () => {
    const piece = fc.constantFrom('', 'a', '\uFEFF', 'c\r', '\n', '\0', '\ud800', 'é', '\r\n');
    fc.assert(
      fc.property(fc.boolean(), fc.array(piece, { maxLength: 8 }), (bom, pieces) => {
        const text = pieces.join('');
        const encoded = encodeString(bom, text);
        expect(Buffer.from(encoded).equals(Buffer.from(encodeText({ bom, lines: LineModel.of(text) })))).toBe(
          true,
        );
        const decoded = decodeText(encoded);
        const same = decoded !== null && decoded.bom === bom && decoded.lines.text === text;
        expect(readsBack(bom, text)).toBe(same);
      }),
      { numRuns: 300 },
    );
  });
});

describe('decodeText', () => {
  it('property: reads any bytes as a fatal UTF-8 decoder does, ASCII ones and views into a larger buffer too', () => {
    const reference = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const byte = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0, max: 0xff }));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 40 }), fc.nat(3), (values, offset) => {
        // A view that starts and ends inside its buffer: the decoder must read only its own bytes.
        const buffer = new Uint8Array(values.length + offset + 2).fill(0xff);
        buffer.set(values, offset);
        const view = buffer.subarray(offset, offset + values.length);
        let expected: string | null;
        try {
          expected = reference.decode(view);
        } catch {
          expected = null;
        }
        if (expected?.includes('\0')) expected = null;
        const decoded = decodeText(view);
        expect(decoded === null ? null : (decoded.bom ? '\uFEFF' : '') + decoded.lines.text).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('removes a BOM and remembers it', () => {
    const withBom = decodeText(bytes(0xef, 0xbb, 0xbf, 0x61, 0x0a))!;
    expect(withBom.bom).toBe(true);
    expect(withBom.lines.toLines()).toEqual([{ text: 'a', ending: '\n' }]);
    const plain = decodeText(bytes(0x61))!;
    expect(plain.bom).toBe(false);
    expect(plain.lines.toLines()).toEqual([{ text: 'a', ending: '' }]);
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

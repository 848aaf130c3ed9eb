/** Laws of SplicedText: its bytes are the encoding of its text, whichever way they are made, and it reads back as core says. */

import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { SplicedText } from './spliced-text.js';
import { encodeString, encodeUtf8, readsBack } from './text-codec.js';

/** Characters a file or a patch line may hold: ASCII, line breaks, non-ASCII, a pair, a BOM. */
const asciiChar = fc.constantFrom('a', ' ', '\t', '\n', '\r', '}', '~');
const anyChar = fc.constantFrom('a', '\n', '\r', 'é', '€', '😀', '\uFEFF');
/** New strings may hold what does not read back: a NUL, a lone surrogate. */
const newChar = fc.constantFrom('b', '\n', '\r', 'ü', '😀', '\0', '\uD800', '\uDC00', '\uFEFF');

type Step = { keep: [number, number] } | { add: string } | { drop: number };

/** An original (as code points, so a range never splits a pair) and steps over it. */
const spliced = (char: fc.Arbitrary<string>, withDrops: boolean) =>
  fc.array(char, { maxLength: 40 }).chain((points) => {
    const original = points.join('');
    // Code point boundaries as string offsets.
    const bounds = [0];
    for (const p of points) bounds.push(bounds[bounds.length - 1]! + p.length);
    const range = fc
      .tuple(fc.nat(points.length), fc.nat(points.length))
      .map(([a, b]): Step => ({ keep: [bounds[Math.min(a, b)]!, bounds[Math.max(a, b)]!] }));
    const step = fc.oneof(
      range,
      fc.array(newChar, { maxLength: 4 }).map((cs): Step => ({ add: cs.join('') })),
      ...(withDrops ? [fc.nat(3).map((n): Step => ({ drop: n }))] : []),
    );
    return fc.tuple(fc.constant(original), fc.array(step, { maxLength: 12 }), fc.boolean());
  });

/** The steps run on a SplicedText, and the same text built as a plain string. */
function build(original: string, steps: readonly Step[]): { content: SplicedText; expected: string } {
  const content = new SplicedText(original);
  let expected = '';
  for (const s of steps) {
    if ('keep' in s) {
      content.keep(...s.keep);
      expected += original.slice(...s.keep);
    } else if ('add' in s) {
      content.add(s.add);
      expected += s.add;
    } else {
      content.dropEnd(s.drop);
      expected = expected.slice(0, Math.max(0, expected.length - s.drop));
    }
  }
  return { content, expected };
}

describe('SplicedText', () => {
  it('is the text its steps make, with its length and last line break', () => {
    fc.assert(
      fc.property(spliced(anyChar, true), ([original, steps]) => {
        const { content, expected } = build(original, steps);
        expect(content.text()).toBe(expected);
        expect(content.length).toBe(expected.length);
        expect(content.endsWithLineBreak()).toBe(/[\r\n]$/.test(expected));
        expect(content.endsWithLineFeed()).toBe(expected.endsWith('\n'));
      }),
    );
  });

  it('gives the bytes of its text, sliced from ASCII bytes or encoded', () => {
    fc.assert(
      fc.property(fc.oneof(spliced(asciiChar, true), spliced(anyChar, true)), ([original, steps, bom]) => {
        const { content, expected } = build(original, steps);
        const originalBytes = encodeString(false, original);
        expect(content.bytes(bom, originalBytes)).toEqual(encodeString(bom, expected));
      }),
    );
  });

  it('reads back exactly when core says its text does', () => {
    fc.assert(
      fc.property(fc.oneof(spliced(asciiChar, false), spliced(anyChar, false)), ([original, steps, bom]) => {
        const { content, expected } = build(original, steps);
        expect(content.readsBack(bom)).toBe(readsBack(bom, expected));
      }),
    );
  });

  it('tells a CR ending one part and an LF starting the next', () => {
    fc.assert(
      fc.property(spliced(anyChar, false), ([original, steps]) => {
        const { content } = build(original, steps);
        const parts = steps
          .map((s) => ('keep' in s ? original.slice(...s.keep) : 'add' in s ? s.add : ''))
          .filter((part) => part !== '');
        const merges = parts.some(
          (part, k) => k > 0 && parts[k - 1]!.endsWith('\r') && part.startsWith('\n'),
        );
        expect(content.mergesAtJoin()).toBe(merges);
      }),
    );
  });

  it('copies an ASCII original without joining the text', () => {
    const original = 'one\ntwo\nthree\n'.repeat(10_000);
    const content = new SplicedText(original);
    content.keep(0, 4);
    content.add('TWO €\n');
    content.keep(8, original.length);
    const join = vi.spyOn(content, 'text');
    const bytes = content.bytes(false, encodeUtf8(original));
    expect(join).not.toHaveBeenCalled();
    expect(new TextDecoder().decode(bytes)).toBe(`one\nTWO €\n${original.slice(8)}`);
  });

  it('encodes the text when the original bytes are not ASCII', () => {
    const original = 'café\nnext\n';
    const content = new SplicedText(original);
    content.keep(0, 5);
    content.add('added\n');
    const join = vi.spyOn(content, 'text');
    expect(new TextDecoder().decode(content.bytes(false, encodeUtf8(original)))).toBe('café\nadded\n');
    expect(join).toHaveBeenCalled();
  });
});

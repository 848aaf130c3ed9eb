import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { threeWayMerge } from './three-way-merge.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const bytes = (lines: readonly string[]) => encoder.encode(lines.join(''));
const text = (b: Uint8Array) => decoder.decode(b);

/** One edit of a line array: lines `[at, at + remove)` replaced by `insert`. */
interface Splice {
  at: number;
  remove: number;
  insert: string[];
}

const apply = (lines: readonly string[], ...splices: Splice[]) => {
  const out = lines.slice();
  // From the bottom up, so earlier positions stay valid.
  for (const s of [...splices].sort((x, y) => y.at - x.at)) out.splice(s.at, s.remove, ...s.insert);
  return out;
};

/** A base of distinct lines (each with an ending; the last maybe without), and its length. */
const baseLines = fc
  .tuple(fc.uniqueArray(fc.nat({ max: 1_000_000 }), { minLength: 4, maxLength: 60 }), fc.boolean())
  .map(([ids, final]) => ids.map((id, k) => `line ${id}${k === ids.length - 1 && !final ? '' : '\n'}`));

/** New lines no base line equals. */
const newLines = fc.array(
  fc.nat({ max: 1_000 }).map((n) => `new ${n}\n`),
  { maxLength: 4 },
);

/** A base and two edits of it with at least one unchanged line between them. */
const twoEdits = baseLines.chain((base) =>
  fc
    .tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat(), newLines, newLines, fc.boolean())
    .map(([p, q, r, s, insertA, insertB, swap]) => {
      // Cut the base into [0, end1) for the first edit and [start2, n) for the second, with a gap.
      const n = base.length;
      const cut = 1 + (p % (n - 2));
      const aAt = q % cut;
      const aRemove = Math.min(r % 4, cut - 1 - aAt);
      const bAt = cut + 1 + (s % Math.max(1, n - cut - 1));
      const bRemove = Math.min(r % 3, n - bAt);
      // A last line without an ending must keep being last, or an insert after it would glue onto it.
      const first: Splice = { at: aAt, remove: aRemove, insert: insertA };
      const second: Splice = { at: Math.min(bAt, n), remove: bRemove, insert: insertB };
      return { base, ours: swap ? second : first, theirs: swap ? first : second };
    }),
);

/** The last line lacks an ending and a splice inserts after it: no such file exists. */
const gluesOntoLastLine = (base: readonly string[], s: Splice) =>
  !(base[base.length - 1] as string).endsWith('\n') && s.at + s.remove >= base.length && s.insert.length > 0;

describe('threeWayMerge', () => {
  it('property: two edits with a line between them merge into both edits applied', () => {
    fc.assert(
      fc.property(twoEdits, ({ base, ours, theirs }) => {
        fc.pre(!gluesOntoLastLine(base, ours) && !gluesOntoLastLine(base, theirs));
        const merged = threeWayMerge(bytes(base), bytes(apply(base, ours)), bytes(apply(base, theirs)));
        expect(merged.ok).toBe(true);
        if (merged.ok) expect(text(merged.bytes)).toBe(apply(base, ours, theirs).join(''));
      }),
      { numRuns: 300 },
    );
  });

  it('property: a side that did not change takes the other; equal changes merge into themselves', () => {
    const side = fc.array(fc.constantFrom('a\n', 'b\n', '}\n', '\n', 'c'), { maxLength: 20 });
    fc.assert(
      fc.property(side, side, (base, other) => {
        for (const [o, a, b, want] of [
          [base, other, base, other],
          [base, base, other, other],
          [base, other, other, other],
        ] as const) {
          const merged = threeWayMerge(bytes(o), bytes(a), bytes(b));
          expect(merged.ok).toBe(true);
          if (merged.ok) expect(text(merged.bytes)).toBe(want.join(''));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('says where each of our changes landed when theirs moved it', () => {
    const base = ['a\n', 'b\n', 'c\n', 'd\n', 'e\n'];
    const merged = threeWayMerge(
      bytes(base),
      bytes(['a\n', 'b\n', 'c\n', 'd\n', 'E!\n']),
      bytes(['new 1\n', 'new 2\n', 'a\n', 'b\n', 'c\n', 'd\n', 'e\n']),
    );
    expect(merged).toEqual({
      ok: true,
      bytes: bytes(['new 1\n', 'new 2\n', 'a\n', 'b\n', 'c\n', 'd\n', 'E!\n']),
      moved: [{ read: 5, now: 7, lines: 1 }],
    });
  });

  it('reports changes to the same lines as a conflict with the three versions of the region', () => {
    const merged = threeWayMerge(
      bytes(['a\n', 'b\n', 'c\n']),
      bytes(['a\n', 'ours\n', 'c\n']),
      bytes(['a\n', 'theirs\r\n', 'c\n']),
    );
    expect(merged).toEqual({
      ok: false,
      reason: 'conflict',
      conflicts: [{ readStart: 2, readEnd: 2, line: 2, base: ['b'], ours: ['ours'], theirs: ['theirs'] }],
    });
  });

  it('treats changes that touch (adjacent lines) as a conflict: their order would be a guess', () => {
    const merged = threeWayMerge(
      bytes(['a\n', 'b\n', 'c\n']),
      bytes(['a\n', 'B\n', 'c\n']),
      bytes(['a\n', 'b\n', 'C\n']),
    );
    expect(merged.ok).toBe(false);
  });

  it('keeps a byte-order mark, CRLF endings and a missing final newline byte for byte', () => {
    const base = ['\uFEFFa\r\n', 'b\r\n', 'c\r\n', 'd\r\n', 'e'];
    const merged = threeWayMerge(
      bytes(base),
      bytes(['\uFEFFa\r\n', 'B\r\n', 'c\r\n', 'd\r\n', 'e']),
      bytes(['\uFEFFa\r\n', 'b\r\n', 'c\r\n', 'd\r\n', 'E']),
    );
    expect(merged.ok && text(merged.bytes)).toBe('\uFEFFa\r\nB\r\nc\r\nd\r\nE');
  });

  it('refuses binary content', () => {
    expect(threeWayMerge(new Uint8Array([0xff, 0xfe]), bytes(['a']), bytes(['b']))).toEqual({
      ok: false,
      reason: 'binary',
    });
  });

  it('merges two edits at both ends of a 100,000-line file with repeated lines quickly', () => {
    const base = Array.from({ length: 100_000 }, (_, i) => (i % 5 === 0 ? '}\n' : `line ${i}\n`));
    const ours = base.slice();
    ours[10] = 'ours\n';
    const theirs = base.slice();
    theirs[99_990] = 'theirs\n';
    const merged = threeWayMerge(bytes(base), bytes(ours), bytes(theirs));
    const want = ours.slice();
    want[99_990] = 'theirs\n';
    expect(merged.ok && text(merged.bytes) === want.join('')).toBe(true);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DiffStep, diffLines, NEAR_SKIPS, nearSync, resyncByMap } from './line-diff.js';

/** Replays the steps on `a`, checking every kept line really is equal on both sides. */
function replay(a: readonly string[], b: readonly string[], steps: readonly DiffStep[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  for (const step of steps) {
    if (step === '=') {
      expect(a[i]).toBe(b[j]);
      out.push(a[i++] as string);
      j++;
    } else if (step === '-') i++;
    else out.push(b[j++] as string);
  }
  expect([i, j]).toEqual([a.length, b.length]);
  return out;
}

const someLines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', '', '}', 'x y'), { maxLength: 30 });

describe('diffLines', () => {
  it('property: the steps turn the old lines into the new ones, keeping only equal lines', () => {
    fc.assert(
      fc.property(someLines, someLines, (a, b) => {
        expect(replay(a, b, diffLines(a, b))).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it('property: identical sides are all kept; a single inserted block is found exactly', () => {
    fc.assert(
      fc.property(someLines, someLines, fc.nat(), (a, block, at) => {
        expect(diffLines(a, a).every((s) => s === '=')).toBe(true);
        const cut = at % (a.length + 1);
        const b = [...a.slice(0, cut), ...block, ...a.slice(cut)];
        const steps = diffLines(a, b);
        expect(steps.filter((s) => s === '+')).toHaveLength(block.length);
        expect(steps.filter((s) => s === '-')).toHaveLength(0);
      }),
      { numRuns: 200 },
    );
  });

  it('stays linear-ish on a large file rewritten wholesale, showing it as replaced', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const b = Array.from({ length: 20_000 }, (_, i) => `other ${i}`);
    const steps = diffLines(a, b);
    expect(steps.filter((s) => s === '-')).toHaveLength(20_000);
    expect(steps.filter((s) => s === '+')).toHaveLength(20_000);
  });
});

describe('diffLines on large files with scattered edits', () => {
  it('keeps every unchanged line and counts exactly the edited ones', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 4_999 }), { minLength: 1, maxLength: 40 }), (spots) => {
        const a = Array.from({ length: 5_000 }, (_, i) => `line ${i}`);
        const edited = new Set(spots);
        const b = a.map((line, i) => (edited.has(i) ? `${line} edited` : line));
        const steps = diffLines(a, b);
        expect(steps.filter((s) => s === '=')).toHaveLength(5_000 - edited.size);
        expect(steps.filter((s) => s === '+')).toHaveLength(edited.size);
        expect(steps.filter((s) => s === '-')).toHaveLength(edited.size);
      }),
      { numRuns: 50 },
    );
  });
});

describe('diffLines replays', () => {
  /** Random splices (remove some lines, insert some of a small alphabet) at random places of `a`. */
  const spliced = (a: string[]) =>
    fc
      .array(
        fc.record({
          at: fc.nat(),
          remove: fc.nat({ max: 6 }),
          insert: fc.array(fc.constantFrom('}', '', 'x', 'return;', 'new'), { maxLength: 6 }),
        }),
        { maxLength: 30 },
      )
      .map((edits) => {
        const b = a.slice();
        for (const { at, remove, insert } of edits) b.splice(at % (b.length + 1), remove, ...insert);
        return b;
      });

  it('property: on files large enough for the scattered pass, the steps applied to a give b', () => {
    // Repeated lines (a small alphabet) mixed with unique ones: the resync search must not be fooled.
    const large = fc
      .array(
        fc.oneof(
          fc.constantFrom('}', '', '  x'),
          fc.nat().map((n) => `line ${n}`),
        ),
        {
          minLength: 1_000,
          maxLength: 3_000,
        },
      )
      .chain((a) => fc.tuple(fc.constant(a), spliced(a)));
    fc.assert(
      fc.property(large, ([a, b]) => {
        expect(replay(a, b, diffLines(a, b))).toEqual(b);
      }),
      { numRuns: 40 },
    );
  });
});

describe('resync', () => {
  it('property: the direct near search picks what the map search picks, whenever that is near', () => {
    const side = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 40 });
    fc.assert(
      fc.property(side, side, fc.nat(), fc.nat(), (a, b, i0, j0) => {
        const i = i0 % (a.length + 1);
        const j = j0 % (b.length + 1);
        const byMap = resyncByMap(a, b, i, j);
        const near = nearSync(a, b, i, j);
        if (byMap !== null && byMap[0] + byMap[1] <= NEAR_SKIPS) expect(near).toEqual(byMap);
        else expect(near).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});

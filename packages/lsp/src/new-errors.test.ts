import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import { capErrors, errorIdentity, newErrors } from './new-errors.js';

function diag(line: number, message: string, extra: Partial<LspDiagnostic> = {}): LspDiagnostic {
  return {
    range: { start: { line, character: 0 }, end: { line, character: 5 } },
    severity: 1,
    source: 'ts',
    code: 1,
    message,
    ...extra,
  };
}

const arbDiagnostic = fc.record({
  range: fc.record({
    start: fc.record({ line: fc.nat(50), character: fc.nat(20) }),
    end: fc.record({ line: fc.nat(50), character: fc.nat(20) }),
  }),
  severity: fc.constantFrom(1, 1, 2, 3, 4),
  code: fc.constantFrom(1, 2, 'x'),
  source: fc.constantFrom('a', 'b'),
  message: fc.constantFrom('m1', 'm2', 'm3'),
});

function shift(d: LspDiagnostic, by: number): LspDiagnostic {
  return {
    ...d,
    range: {
      start: { ...d.range.start, line: d.range.start.line + by },
      end: { ...d.range.end, line: d.range.end.line + by },
    },
  };
}

function countBy(ds: readonly LspDiagnostic[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of ds)
    if (d.severity === 1) counts.set(errorIdentity(d), (counts.get(errorIdentity(d)) ?? 0) + 1);
  return counts;
}

describe('newErrors', () => {
  it('reports an error that did not exist before', () => {
    expect(newErrors([diag(1, 'old')], [diag(1, 'old'), diag(4, 'fresh')])).toEqual([diag(4, 'fresh')]);
  });

  it('does not report an old error that moved to another line', () => {
    expect(newErrors([diag(1, 'old')], [diag(9, 'old')])).toEqual([]);
  });

  it('ignores warnings, hints and diagnostics without a severity', () => {
    const after = [
      diag(1, 'w', { severity: 2 }),
      diag(2, 'h', { severity: 4 }),
      diag(3, 'u', { severity: undefined }),
    ];
    expect(newErrors([], after)).toEqual([]);
  });

  it('tells errors apart by code and source, not only by message', () => {
    const after = [diag(1, 'same', { code: 2 }), diag(2, 'same', { source: 'other' })];
    expect(newErrors([diag(1, 'same')], after)).toEqual(after);
  });

  it('when an error repeats, the occurrence farthest from the old one is new', () => {
    expect(newErrors([diag(10, 'dup')], [diag(11, 'dup'), diag(40, 'dup')])).toEqual([diag(40, 'dup')]);
  });

  it('returns new errors in file order', () => {
    const after = [
      diag(9, 'b'),
      diag(2, 'a'),
      diag(2, 'c', { range: { start: { line: 2, character: 1 }, end: { line: 2, character: 2 } } }),
    ];
    expect(newErrors([], after).map((d) => d.message)).toEqual(['a', 'c', 'b']);
  });

  it('law: nothing is new when the diagnostics are unchanged, even shifted by lines', () => {
    fc.assert(
      fc.property(fc.array(arbDiagnostic, { maxLength: 20 }), fc.integer({ min: 0, max: 30 }), (ds, by) => {
        expect(
          newErrors(
            ds,
            ds.map((d) => shift(d, by)),
          ),
        ).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('law: with nothing before, every error after is new', () => {
    fc.assert(
      fc.property(fc.array(arbDiagnostic, { maxLength: 20 }), (after) => {
        expect(newErrors([], after)).toHaveLength(after.filter((d) => d.severity === 1).length);
      }),
      { numRuns: 200 },
    );
  });

  it('law: the new errors are errors of the after set, as many per identity as it gained', () => {
    fc.assert(
      fc.property(
        fc.array(arbDiagnostic, { maxLength: 20 }),
        fc.array(arbDiagnostic, { maxLength: 20 }),
        (before, after) => {
          const fresh = newErrors(before, after);
          for (const d of fresh) expect(after).toContain(d);
          const was = countBy(before);
          const now = countBy(after);
          const gained = new Map<string, number>();
          for (const [key, n] of now) if (n > (was.get(key) ?? 0)) gained.set(key, n - (was.get(key) ?? 0));
          expect(countBy(fresh)).toEqual(gained);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('capErrors', () => {
  it('lists at most the limit and counts the rest', () => {
    const errors = Array.from({ length: 25 }, (_, i) => diag(i, `e${i}`));
    const { listed, omitted } = capErrors(errors, 20);
    expect(listed).toHaveLength(20);
    expect(listed[19]?.message).toBe('e19');
    expect(omitted).toBe(5);
  });

  it('keeps only the contract fields', () => {
    const noisy = { ...diag(0, 'x'), tags: [1], data: { a: 1 } } as LspDiagnostic;
    expect(Object.keys(capErrors([noisy], 20).listed[0] ?? {}).sort()).toEqual([
      'code',
      'message',
      'range',
      'severity',
      'source',
    ]);
  });
});

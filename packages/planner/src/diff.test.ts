import { LineModel } from '@patchsmith/core';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DiffRegion, describeChange, describeRegions } from './diff.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('describeChange', () => {
  it('an added file diffs from /dev/null', () => {
    expect(describeChange('a', 'a', null, bytes('x\ny\n'))).toEqual({
      diff: '--- /dev/null\n+++ a\n@@ -0,0 +1,2 @@\n+x\n+y\n',
      additions: 2,
      deletions: 0,
    });
  });

  it('a moved file names both paths', () => {
    const change = describeChange('old', 'new', bytes('1\n2\n3\n'), bytes('1\nTWO\n3\n'));
    expect(change).toEqual({
      diff: '--- old\n+++ new\n@@ -1,3 +1,3 @@\n 1\n-2\n+TWO\n 3\n',
      additions: 1,
      deletions: 1,
    });
  });

  it('CRLF and bare CR endings show as plain lines', () => {
    const change = describeChange('f', 'f', bytes('a\r\nb\rc\r\n'), bytes('a\r\nB\rc\r\n'));
    expect(change.diff).toBe('--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
  });

  it('counts a gained final newline as a changed line, as git does', () => {
    expect(describeChange('f', 'f', bytes('a'), bytes('a\n'))).toMatchObject({ additions: 1, deletions: 1 });
  });

  it('binary content is named, not diffed', () => {
    const bin = new Uint8Array([0, 159, 146, 150]);
    expect(describeChange('b', 'b', bin, bytes('x\n'))).toEqual({
      diff: '--- b\n+++ b\nBinary files b and b differ\n',
      additions: 0,
      deletions: 0,
    });
    expect(describeChange('b', 'c', bin, bin).diff).toBe('--- b\n+++ c\n');
  });
});

describe('describeChange output', () => {
  const someLines = fc.array(fc.constantFrom('a', 'b', 'c', 'd', '', '}', 'x y'), { maxLength: 30 });
  const withEnding = fc
    .tuple(someLines, fc.boolean())
    .map(([lines, final]) => (lines.length === 0 ? '' : lines.join('\n') + (final ? '\n' : '')));

  it('property: the unified diff applies (with jsdiff) to the old text and gives the new one', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(withEnding, withEnding, (before, after) => {
        const { diff, additions, deletions } = describeChange(
          'f',
          'f',
          encoder.encode(before),
          encoder.encode(after),
        );
        expect(applyPatch(before, diff)).toBe(after);
        const body = diff.split('\n').slice(2);
        expect(body.filter((l) => l.startsWith('+'))).toHaveLength(additions);
        expect(body.filter((l) => l.startsWith('-'))).toHaveLength(deletions);
      }),
      { numRuns: 300 },
    );
  });
});

describe('describeRegions', () => {
  const line = fc.constantFrom('a', 'b', 'c', '', '}', 'x y');
  /** A file and edits of it: each region replaces some lines (none for an insertion) by others, none overlapping. */
  const edited = fc
    .tuple(
      fc.array(line, { maxLength: 40 }),
      fc.array(fc.tuple(fc.nat({ max: 12 }), fc.nat({ max: 3 }), fc.array(line, { maxLength: 4 })), {
        maxLength: 5,
      }),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([lines, edits, finalBefore, finalAfter]) => {
      const regions: DiffRegion[] = [];
      let at = 0;
      for (const [gap, removed, b] of edits) {
        const aFrom = Math.min(lines.length, at + gap);
        const aTo = Math.min(lines.length, aFrom + removed);
        regions.push({ aFrom, aTo, b });
        at = aTo;
      }
      const after: string[] = [];
      let next = 0;
      for (const region of regions) {
        after.push(...lines.slice(next, region.aFrom), ...region.b);
        next = region.aTo;
      }
      after.push(...lines.slice(next));
      // An unterminated last line is not empty (that text would have one line fewer).
      const text = (l: string[], final: boolean) =>
        l.length === 0 ? '' : l.join('\n') + (final || l.at(-1) === '' ? '\n' : '');
      return { before: text(lines, finalBefore), after: text(after, finalAfter), regions };
    });

  it('property: the diff of the regions alone applies (with jsdiff) to the old text and gives the new one', () => {
    fc.assert(
      fc.property(edited, ({ before, after, regions }) => {
        const model = LineModel.of(before);
        const described = describeRegions('f', 'f', model, regions, after === '' || after.endsWith('\n'));
        expect(applyPatch(before, described.diff)).toBe(after);
        const body = described.diff.split('\n').slice(2);
        expect(body.filter((l) => l.startsWith('+'))).toHaveLength(described.additions);
        expect(body.filter((l) => l.startsWith('-'))).toHaveLength(described.deletions);
      }),
      { numRuns: 500 },
    );
  });

  it('skips the unchanged lines between far-apart edits, numbering the hunks as the whole-file diff does', () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => `line ${i}`);
    const before = `${lines.join('\n')}\n`;
    const regions = [
      { aFrom: 10, aTo: 11, b: ['ten'] },
      { aFrom: 4_000, aTo: 4_000, b: ['new'] },
    ];
    const after = `${[...lines.slice(0, 10), 'ten', ...lines.slice(11, 4_000), 'new', ...lines.slice(4_000)].join('\n')}\n`;
    const encoder = new TextEncoder();
    expect(describeRegions('f', 'f', LineModel.of(before), regions, true)).toEqual(
      describeChange('f', 'f', encoder.encode(before), encoder.encode(after)),
    );
  });
});

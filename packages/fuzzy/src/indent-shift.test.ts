import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { reindent, uniformShift } from './indent-shift.js';

describe('uniformShift', () => {
  test.each([
    {
      name: 'file side',
      file: ['    a', '', '      b'],
      patch: ['  a', '', '    b'],
      want: { prefix: '  ', side: 'file' },
    },
    {
      name: 'patch side',
      file: ['a', '\tb'],
      patch: ['\ta', '\t\tb'],
      want: { prefix: '\t', side: 'patch' },
    },
    {
      name: 'blank lines are exempt',
      file: ['  a', '      '],
      patch: ['a', ''],
      want: { prefix: '  ', side: 'file' },
    },
    { name: 'no difference is no shift', file: ['  a'], patch: ['  a'], want: null },
    { name: 'different prefixes', file: ['  a', '    b'], patch: ['a', 'b'], want: null },
    { name: 'sides differ', file: ['  a', 'b'], patch: ['a', '  b'], want: null },
    { name: 'tab versus spaces', file: ['\ta'], patch: ['    a'], want: null },
    {
      name: 'the prefix goes in front',
      file: ['\t  a'],
      patch: ['  a'],
      want: { prefix: '\t', side: 'file' },
    },
    { name: 'not behind', file: ['  \ta'], patch: ['  a'], want: null },
    { name: 'a shifted line beside an unshifted one', file: ['  a', 'b'], patch: ['a', 'b'], want: null },
  ])('$name', ({ file, patch, want }) => {
    expect(uniformShift(file, patch)).toEqual(want);
  });

  test('adding a prefix to every non-blank line is found as that shift, both ways', () => {
    const line = fc.tuple(fc.constantFrom('', ' ', '  ', '\t'), fc.constantFrom('a', 'b()', 'c = 1', ''));
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(' ', '  ', '\t', ' \t'),
        (lines, prefix) => {
          const base = lines.map(([indent, text]) => (text === '' ? '' : indent + text));
          const shifted = base.map((l) => (l === '' ? l : prefix + l));
          const hasText = base.some((l) => l !== '');
          expect(uniformShift(shifted, base)).toEqual(hasText ? { prefix, side: 'file' } : null);
          expect(uniformShift(base, shifted)).toEqual(hasText ? { prefix, side: 'patch' } : null);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('reindent', () => {
  test('file side adds the prefix, patch side removes it where present, blank lines stay', () => {
    expect(reindent('x', { prefix: '  ', side: 'file' })).toBe('  x');
    expect(reindent('  x', { prefix: '  ', side: 'patch' })).toBe('x');
    expect(reindent('x', { prefix: '  ', side: 'patch' })).toBe('x');
    expect(reindent('\tx', { prefix: '  ', side: 'patch' })).toBe('\tx');
    expect(reindent('   ', { prefix: '  ', side: 'file' })).toBe('   ');
    expect(reindent('', { prefix: '  ', side: 'patch' })).toBe('');
  });
});

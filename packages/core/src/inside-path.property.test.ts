import { relative } from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { climbsOut, isInsidePath, isStrictlyInside } from './path-policy.js';

// The definitions through path.relative, which the string comparison of resolved paths must agree with.
const insideByRelative = (child: string, parent: string) => {
  const rel = relative(parent, child);
  return rel === '' || !climbsOut(rel);
};
const strictlyByRelative = (child: string, parent: string) => {
  const rel = relative(parent, child);
  return rel !== '' && !climbsOut(rel);
};

// Paths made of the segments that matter: names that share a prefix, dot names, `..foo`, empty ones.
const segment = fc.constantFrom('a', 'ab', 'b', '.', '..', '..foo', '.git', '', 'a.b');
const path = fc
  .tuple(fc.array(segment, { maxLength: 5 }), fc.boolean())
  .map(([segments, trailing]) => `/${segments.join('/')}${trailing ? '/' : ''}`);
const resolvedPath = fc
  .array(fc.constantFrom('a', 'ab', 'b', '..foo', '.git', 'a.b'), { maxLength: 4 })
  .map((segments) => `/${segments.join('/')}`);

it('agrees with path.relative on any absolute paths, resolved or not', () => {
  fc.assert(
    fc.property(fc.oneof(path, resolvedPath), fc.oneof(path, resolvedPath), (child, parent) => {
      expect(isInsidePath(child, parent)).toBe(insideByRelative(child, parent));
      expect(isStrictlyInside(child, parent)).toBe(strictlyByRelative(child, parent));
    }),
    { numRuns: 5000 },
  );
});

it('a name that extends the parent’s last name is not inside it', () => {
  expect(isInsidePath('/r/ab', '/r/a')).toBe(false);
  expect(isInsidePath('/r/a/b', '/r/a')).toBe(true);
  expect(isInsidePath('/r/a/../b', '/r/a')).toBe(false);
  expect(isInsidePath('/r/..foo', '/r')).toBe(true);
  expect(isStrictlyInside('/r', '/r')).toBe(false);
  expect(isStrictlyInside('/r/x', '/')).toBe(true);
});

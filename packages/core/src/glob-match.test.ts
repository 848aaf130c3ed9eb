import { createRequire } from 'node:module';
import fc from 'fast-check';
import type Picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileGlob, expandBraces, GlobSyntaxError } from './glob-match.js';

const picomatch = createRequire(import.meta.url)('picomatch') as typeof Picomatch;

/**
 * A glob piece: what permission rules are written with. Not `[!a]`: with `noextglob` picomatch
 * reads it as the class of `!` and `a`; we read it as bash and .gitignore do, "not a" (below).
 */
const piece = fc.constantFrom(
  'a',
  'b',
  'c',
  '.',
  '-',
  '*',
  '?',
  '[ab]',
  '[^a]',
  '[a-b]',
  '{a,b}',
  '{a,bc}',
  '\\*',
  'A',
);
const segment = fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join(''));
const glob = fc
  .array(fc.oneof(segment, fc.constant('**')), { minLength: 1, maxLength: 4 })
  .map((segments) => segments.join('/'));
/** A canonical tree path. */
const path = fc
  .array(fc.constantFrom('a', 'b', 'ab', 'ba', '.a', 'a.b', 'c-a', 'aab', '*', 'A', 'B.a'), {
    minLength: 1,
    maxLength: 5,
  })
  .map((segments) => segments.join('/'));

/**
 * A wildcard segment before a trailing globstar: picomatch lets `a/**` match `a` itself but not
 * the same pattern with `*` for `a`; we let both match the
 * folder, the same rule for every segment (pinned below).
 */
function wildcardBeforeTrailingGlobstar(pattern: string): boolean {
  const segments = pattern.split('/');
  const trailing = segments.findLastIndex((s) => s !== '**') + 1;
  return trailing < segments.length && trailing > 0 && /[*?[{\\]/.test(segments[trailing - 1]!);
}

/** `**` with more in its segment (`**{a,b}x`): a star there, as in bash; picomatch sometimes lets it cross folders. */
function globstarInsideSegment(pattern: string): boolean {
  return pattern.split('/').some((segment) => segment !== '**' && segment.includes('**'));
}

function reference(pattern: string, caseInsensitive: boolean): (p: string) => boolean {
  return picomatch(pattern, {
    dot: true,
    nocase: caseInsensitive,
    basename: !pattern.includes('/'),
    noextglob: true,
  });
}

describe('compileGlob', () => {
  it('agrees with picomatch on canonical paths (property)', () => {
    fc.assert(
      fc.property(
        glob,
        fc.array(path, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (pattern, paths, nocase) => {
          fc.pre(!wildcardBeforeTrailingGlobstar(pattern) && !globstarInsideSegment(pattern));
          const ours = compileGlob(pattern, { basename: !pattern.includes('/'), caseInsensitive: nocase });
          const theirs = reference(pattern, nocase);
          for (const p of paths)
            expect([pattern, p, nocase, ours(p)]).toEqual([pattern, p, nocase, theirs(p)]);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('matches what rules are written with', () => {
    const m = (pattern: string, p: string) =>
      compileGlob(pattern, { basename: !pattern.includes('/'), caseInsensitive: false })(p);
    expect(m('*.pem', 'keys/deep/a.pem')).toBe(true);
    expect(m('secrets/**', 'secrets')).toBe(true);
    expect(m('secrets/**', 'secrets/a/b')).toBe(true);
    expect(m('secrets/**', 'other/secrets/a')).toBe(false);
    expect(m('**/*.key', 'a.key')).toBe(true);
    expect(m('src/*.ts', 'src/a/b.ts')).toBe(false);
    expect(m('.env*', '.env.local')).toBe(true);
    expect(m('{a,b}/*.{1..3}', 'b/x.2')).toBe(true);
    expect(m('{a,b}/*.{1..3}', 'b/x.4')).toBe(false);
    expect(m('*/**', 'a')).toBe(true);
    expect(m('**{a,b}a/x', 'a/ba/x')).toBe(false);
    expect(m('**{a,b}a/x', 'ba/x')).toBe(true);
    expect(m('[!a]*', 'a')).toBe(false);
    expect(m('[!a]*', 'b')).toBe(true);
    expect(m('[!a]*', '!')).toBe(true);
  });

  it('takes time linear in the path for any number of stars (a hostile config cannot hang a match)', () => {
    const many = `${'*a'.repeat(40)}*b`;
    const isMatch = compileGlob(many, { basename: true, caseInsensitive: false });
    expect(isMatch('a'.repeat(5_000))).toBe(false);
    expect(isMatch(`${'a'.repeat(5_000)}b`)).toBe(true);
    expect(
      compileGlob(`**/${'*/**/'.repeat(20)}x`, { basename: false, caseInsensitive: false })('a/'.repeat(300)),
    ).toBe(false);
  });

  it('refuses braces that would make too many patterns', () => {
    expect(() => expandBraces('{a,b}'.repeat(12))).toThrow(GlobSyntaxError);
    expect(() => expandBraces('{1..100000}')).toThrow(GlobSyntaxError);
    expect(expandBraces('{a,b}{c,d}')).toEqual(['ac', 'ad', 'bc', 'bd']);
    expect(expandBraces('{a}')).toEqual(['{a}']);
  });
});

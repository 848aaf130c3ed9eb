import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideNames, decidePath, matchesGlob } from './permission-rules.js';

describe('matchesGlob', () => {
  it.each([
    // [pattern, path, matches]
    ['*.ts', 'index.ts', true],
    ['*.ts', 'src/deep/index.ts', true], // no slash: any depth
    ['*.ts', 'index.tsx', false],
    ['/*.ts', 'index.ts', true], // leading slash: anchored
    ['/*.ts', 'src/index.ts', false],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/a/b.ts', false], // * stays within a segment
    ['src/**', 'src/a/b/c.ts', true],
    ['src/**', 'srcx/a.ts', false],
    ['src/**/*.test.ts', 'src/a.test.ts', true], // ** is zero segments too
    ['src/**/*.test.ts', 'src/x/y/a.test.ts', true],
    ['**/secrets/**', 'secrets/key', true],
    ['**/secrets/**', 'a/b/secrets/key', true],
    ['**/secrets/**', 'a/notsecrets/key', false],
    ['file?.txt', 'file1.txt', true],
    ['file?.txt', 'file10.txt', false],
    ['file?.txt', 'file/.txt', false],
    ['*.{js,ts}', 'a/b.js', true],
    ['*.{js,ts}', 'b.ts', true],
    ['*.{js,ts}', 'b.css', false],
    ['{src,lib/{a,b}}/x.ts', 'lib/b/x.ts', true],
    ['{src,lib/{a,b}}/x.ts', 'lib/c/x.ts', false],
    ['a.b', 'axb', false], // dots are literal
    ['(x)+.md', '(x)+.md', true],
    ['.env', 'config/.env', true],
    ['{unclosed', '{unclosed', true],
    ['secret[0-9].txt', 'a/secret7.txt', true], // character classes
    ['secret[0-9].txt', 'secretx.txt', false],
    ['**/*.key', '.ssh/id.key', true], // dot folders are not skipped
    ['.*', 'a/.env', true],
    ['..foo', '..foo', true],
  ])('%s vs %s -> %s', (pattern, path, expected) => {
    expect(matchesGlob(path, pattern)).toBe(expected);
  });

  it('matches a literal path (without glob characters) exactly, and nothing else', () => {
    const segment = fc.stringMatching(/^[a-z0-9._-]{1,8}$/).filter((s) => s !== '.' && s !== '..');
    const path = fc.array(segment, { minLength: 2, maxLength: 4 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(path, path, (a, b) => {
        expect(matchesGlob(a, a)).toBe(true);
        expect(matchesGlob(b, a)).toBe(a === b);
      }),
      { numRuns: 200 },
    );
  });

  it('lets ** below a folder match every path under it', () => {
    const segment = fc.stringMatching(/^[a-z0-9]{1,6}$/);
    fc.assert(
      fc.property(segment, fc.array(segment, { minLength: 1, maxLength: 5 }), (dir, rest) => {
        expect(matchesGlob(`${dir}/${rest.join('/')}`, `${dir}/**`)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});

describe('case-insensitive volumes', () => {
  it('folds case only when asked', () => {
    expect(matchesGlob('Secrets/Key.txt', 'secrets/**')).toBe(false);
    expect(matchesGlob('Secrets/Key.txt', 'secrets/**', { caseInsensitive: true })).toBe(true);
  });
});

describe('decideNames', () => {
  const policy = {
    rules: [
      { match: 'docs/**', action: 'allow' as const },
      { match: 'secrets/**', action: 'deny' as const },
      { match: 'src/**', action: 'ask' as const },
    ],
  };

  it('lets any deny win among the names of one file', () => {
    const decision = decideNames(['docs/s/key.txt', 'secrets/key.txt'], policy);
    expect(decision).toMatchObject({
      path: 'docs/s/key.txt',
      via: 'secrets/key.txt',
      action: 'deny',
      ruleIndex: 1,
    });
  });

  it('takes ask over allow, and a deny over an ask', () => {
    expect(decideNames(['docs/a', 'src/a'], policy).action).toBe('ask');
    expect(decideNames(['src/a', 'secrets/a'], policy).action).toBe('deny');
  });

  it('is the plain decision for one name', () => {
    expect(decideNames(['docs/a'], policy)).toEqual(decidePath('docs/a', policy));
  });
});

import { posix } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolvePatchPath } from './paths.js';

const ROOT = '/work/project';

describe('resolvePatchPath', () => {
  it.each([
    ['a.txt', 'a.txt'],
    ['./a.txt', 'a.txt'],
    ['src/./lib/a.ts', 'src/lib/a.ts'],
    ['src/../lib/a.ts', 'lib/a.ts'],
    ['src//a.ts', 'src/a.ts'],
    ['/work/project/src/a.ts', 'src/a.ts'],
    ['/work/project/../project/a.ts', 'a.ts'],
    ['.gitignore', '.gitignore'],
    ['src/.github/workflow.yml', 'src/.github/workflow.yml'],
    ['x.git/a', 'x.git/a'],
    ['dir with space/é.txt', 'dir with space/é.txt'],
  ])('%s -> %s', (raw, expected) => {
    expect(resolvePatchPath(ROOT, raw)).toEqual({ ok: true, path: expected });
  });

  it('accepts a root given with a trailing slash or dots', () => {
    expect(resolvePatchPath('/work/project/', 'a')).toEqual({ ok: true, path: 'a' });
    expect(resolvePatchPath('/work/x/../project', '/work/project/a')).toEqual({ ok: true, path: 'a' });
  });

  it.each(['../a.txt', 'src/../../a.txt', '..', '/etc/passwd', '/work/projectile/a.txt', '/work/a.txt'])(
    '%s leads outside the root',
    (raw) => {
      const resolved = resolvePatchPath(ROOT, raw);
      expect(resolved.ok).toBe(false);
      if (!resolved.ok) {
        expect(resolved.code).toBe('PATH_OUTSIDE_ROOT');
        expect(resolved.message).toContain(raw);
      }
    },
  );

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['a\0b', 'NUL'],
    ['.git/config', '.git'],
    ['.GIT/HEAD', '.git'],
    ['sub/.Git/objects/x', '.git'],
    ['a/../.git/hooks/pre-commit', '.git'],
    ['/work/project/.git/config', '.git'],
    ['.', 'root'],
    ['src/..', 'root'],
    ['src/', 'folder'],
  ])('%j is invalid (%s)', (raw, why) => {
    const resolved = resolvePatchPath(ROOT, raw);
    expect(resolved.ok).toBe(false);
    if (!resolved.ok) {
      expect(resolved.code).toBe('PATH_INVALID');
      expect(resolved.message).toContain(why);
    }
  });
});

describe('resolvePatchPath, plain-path shortcut', () => {
  /** The canonical path as resolving both paths finds it (the former code path for every path). */
  const resolved = (root: string, raw: string): string =>
    posix.relative(posix.resolve(root), posix.resolve(posix.resolve(root), raw));

  it('property: gives what resolving against the root gives, for plain and unusual paths alike', () => {
    const segment = fc.constantFrom('a', 'src', '.', '..', '', '.git', '.GIT', 'x y', 'b.ts', '...');
    const raw = fc
      .tuple(fc.boolean(), fc.array(segment, { minLength: 1, maxLength: 5 }))
      .map(([absolute, segments]) => (absolute ? '/r/' : '') + segments.join('/'));
    const root = fc.constantFrom('/r', '/r/', '/', '/r/./s/..');
    fc.assert(
      fc.property(root, raw, (r, p) => {
        const result = resolvePatchPath(r, p);
        const expected = resolved(r, p);
        if (result.ok) expect(result.path).toBe(expected);
        else if (result.code === 'PATH_OUTSIDE_ROOT')
          expect(expected === '..' || expected.startsWith('../')).toBe(true);
        else
          expect(
            p.trim() === '' || p.endsWith('/') || expected === '' || /(^|\/)\.git(\/|$)/i.test(expected),
          ).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

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

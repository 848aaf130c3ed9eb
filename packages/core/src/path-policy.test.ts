import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { climbsOut, isInsidePath, protectedPathReason, toTreePath } from './path-policy.js';

const roots = { root: '/work/tree', realRoot: '/real/tree' };

describe('toTreePath', () => {
  it.each([
    ['a/b.txt', 'a/b.txt'],
    ['./a//b.txt', 'a/b.txt'],
    ['a/../b.txt', 'b.txt'],
    ['..foo', '..foo'], // a name, not a climb
    ['.../x', '.../x'],
    ['a/..b/c', 'a/..b/c'],
    ['/real/tree/a.txt', 'a.txt'], // absolute inside the real root
    ['/work/tree/a.txt', 'a.txt'], // absolute inside the root as given
  ])('%s is %s', (raw, rel) => {
    expect(toTreePath(raw, roots)).toEqual({ ok: true, rel });
  });

  it.each([
    ['../x', 'PATH_OUTSIDE_ROOT'],
    ['a/../../x', 'PATH_OUTSIDE_ROOT'],
    ['/etc/passwd', 'PATH_OUTSIDE_ROOT'],
    ['..', 'PATH_OUTSIDE_ROOT'],
    ['.', 'PATH_INVALID'],
    ['', 'PATH_INVALID'],
    ['a\0b', 'PATH_INVALID'],
    ['.git/config', 'PATH_INVALID'],
    ['sub/.GIT/hooks/x', 'PATH_INVALID'],
  ])('%s is refused with %s', (raw, code) => {
    expect(toTreePath(raw, roots)).toMatchObject({ ok: false, code });
  });

  it('never answers a path that climbs out (property)', () => {
    const segment = fc.constantFrom('a', 'b', '..', '.', '..a', 'a..', '...', '');
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => {
        const result = toTreePath(segments.join('/'), roots);
        if (result.ok) {
          expect(climbsOut(result.rel)).toBe(false);
          expect(isInsidePath(`/work/tree/${result.rel}`, '/work/tree')).toBe(true);
        }
      }),
    );
  });
});

describe('isInsidePath', () => {
  it('takes ..foo below the parent as inside', () => {
    expect(isInsidePath('/r/..foo', '/r')).toBe(true);
    expect(isInsidePath('/r/../foo', '/r')).toBe(false);
    expect(isInsidePath('/rx', '/r')).toBe(false);
    expect(isInsidePath('/r', '/r')).toBe(true);
  });
});

describe('protectedPathReason', () => {
  it('protects the config and the plain state folder at the root only', () => {
    expect(protectedPathReason('.patchsmith.json')).toMatch(/config/);
    expect(protectedPathReason('.patchsmith/txn/journal.json')).toMatch(/private state/);
    expect(protectedPathReason('.patchsmith')).toMatch(/private state/);
    expect(protectedPathReason('sub/.patchsmith.json')).toBeNull();
    expect(protectedPathReason('.patchsmith.jsonx')).toBeNull();
    expect(protectedPathReason('.PatchSmith.json')).toBeNull();
    expect(protectedPathReason('.PatchSmith.json', true)).toMatch(/config/);
  });
});

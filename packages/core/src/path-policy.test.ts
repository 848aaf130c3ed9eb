import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { climbsOut, isInsidePath, namesGitFolder, protectedPathReason, toTreePath } from './path-policy.js';

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
    // Aliases of .git on NTFS and HFS+ (git refuses the same): trailing dots and spaces, an
    // alternate data stream, the 8.3 short name, ignorable code points.
    ['.git./hooks/pre-commit', 'PATH_INVALID'],
    ['.git /config', 'PATH_INVALID'],
    ['.git. . ./config', 'PATH_INVALID'],
    ['.git::$INDEX_ALLOCATION/hooks/post-checkout', 'PATH_INVALID'],
    ['GIT~1/config', 'PATH_INVALID'],
    ['sub/git~1/config', 'PATH_INVALID'],
    ['.g\u200cit/config', 'PATH_INVALID'],
    ['.\ufeffGi\u200dt\u206a/hooks/x', 'PATH_INVALID'],
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

describe('namesGitFolder', () => {
  it('refuses every alias built from .git (property), and no other name', () => {
    const ignorable = fc.constantFrom(
      '\u200c',
      '\u200d',
      '\u200e',
      '\u200f',
      '\u202a',
      '\u202e',
      '\u206a',
      '\u206f',
      '\ufeff',
    );
    const letter = (c: string) =>
      fc
        .tuple(fc.constantFrom(c, c.toUpperCase()), fc.array(ignorable, { maxLength: 2 }))
        .map(([l, i]) => l + i.join(''));
    const alias = fc
      .tuple(
        fc.array(ignorable, { maxLength: 2 }),
        letter('.'),
        letter('g'),
        letter('i'),
        letter('t'),
        fc.stringMatching(/^[. ]{0,3}$/),
        fc.constantFrom('', ':', '::$INDEX_ALLOCATION', ':x:$DATA'),
      )
      .map(([lead, ...rest]) => lead.join('') + rest.join(''));
    fc.assert(
      fc.property(alias, (segment) => {
        expect(namesGitFolder(segment)).toBe(true);
      }),
    );
  });

  it.each([
    '.gitignore',
    '.github',
    'git',
    '.gi',
    'x.git',
    '.git-foo',
    'git~',
    'git~0',
    'gitx~1',
    '.gitmodules',
  ])('%s is a plain name', (name) => expect(namesGitFolder(name)).toBe(false));
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

  it('protects their aliases on NTFS and HFS+ too, so a patch cannot lift its rules through one', () => {
    expect(protectedPathReason('.patchsmith.json.')).toMatch(/config/);
    expect(protectedPathReason('.patchsmith.json ')).toMatch(/config/);
    expect(protectedPathReason('.patchsmith.json::$DATA')).toMatch(/config/);
    expect(protectedPathReason('.patch\u200csmith.json')).toMatch(/config/);
    expect(protectedPathReason('PATCHS~1.JSO')).toMatch(/config/);
    expect(protectedPathReason('.patchsmith./txn/journal.json')).toMatch(/private state/);
    expect(protectedPathReason('patchs~2/lock')).toMatch(/private state/);
    expect(protectedPathReason('.patchsmith\ufeff/lock')).toMatch(/private state/);
    expect(protectedPathReason('patchsmith.json')).toBeNull();
    expect(protectedPathReason('sub/.patchsmith.json.')).toBeNull();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeManifest, encodeManifest, type Manifest } from './manifest.js';
import { assertSafeRelativePath, fromStorePath, toStorePath } from './paths.js';
import { isWellFormedId, newSnapshotId, snapshotRef } from './snapshot-id.js';

describe('snapshot ids', () => {
  it('are YYYYMMDD-HHMMSS-xxxx in UTC', () => {
    expect(newSnapshotId(new Date('2024-03-05T07:08:09.123Z'), 'beef')).toBe('20240305-070809-beef');
    expect(newSnapshotId(new Date())).toMatch(/^\d{8}-\d{6}-[0-9a-f]{4}$/);
    expect(snapshotRef('20240305-070809-beef')).toBe('refs/patchsmith/snapshots/20240305-070809-beef');
  });

  it('sort like their times (to the second)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        (a, b) => {
          const [sa, sb] = [Math.floor(a.getTime() / 1000), Math.floor(b.getTime() / 1000)];
          fc.pre(sa !== sb);
          expect(newSnapshotId(a, '0000') < newSnapshotId(b, '0000')).toBe(sa < sb);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('only well-formed ids can name a ref', () => {
    expect(isWellFormedId('20240305-070809-beef')).toBe(true);
    for (const bad of ['', '..', '../x', 'a/b', '-x', 'a b', 'a..b/c', 'x'.repeat(65), 'a\0']) {
      expect(isWellFormedId(bad)).toBe(false);
    }
  });
});

describe('paths', () => {
  it('accepts canonical relative paths', () => {
    for (const ok of ['a', 'a/b.txt', '.github/workflows/ci.yml', 'x/.gitignore', 'a..b']) {
      expect(() => assertSafeRelativePath(ok)).not.toThrow();
    }
  });

  it.each([
    ['../x', 'PATH_OUTSIDE_ROOT'],
    ['a/../../x', 'PATH_OUTSIDE_ROOT'],
    ['/abs', 'PATH_OUTSIDE_ROOT'],
    ['C:\\x', 'PATH_OUTSIDE_ROOT'],
    ['.git/HEAD', 'PATH_INVALID'],
    ['.git', 'PATH_INVALID'],
    ['a//b', 'PATH_INVALID'],
    ['./a', 'PATH_INVALID'],
    ['a/', 'PATH_INVALID'],
    ['', 'PATH_INVALID'],
    ['a\0b', 'PATH_INVALID'],
  ])('refuses %j with %s', (path, code) => {
    expect(() => assertSafeRelativePath(path)).toThrow(expect.objectContaining({ code }));
  });

  it('store paths round-trip through the root prefix', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z]{1,4}$/), { maxLength: 3 }),
        fc.array(fc.stringMatching(/^[a-z]{1,4}$/), { minLength: 1, maxLength: 3 }),
        (prefixParts, pathParts) => {
          const prefix = prefixParts.join('/');
          const path = pathParts.join('/');
          expect(fromStorePath(prefix, toStorePath(prefix, path))).toBe(path);
        },
      ),
      { numRuns: 200 },
    );
    expect(fromStorePath('pkg', 'pkgs/a')).toBeNull();
    expect(fromStorePath('pkg', 'other/a')).toBeNull();
  });
});

describe('manifest', () => {
  const manifest: Manifest = {
    format: 'patchsmith-snapshot',
    version: 1,
    id: '20240305-070809-beef',
    time: '2024-03-05T07:08:09.123Z',
    message: 'm',
    root: '',
    entries: [
      {
        path: 'a',
        before: { hash: 'a'.repeat(64), mode: 0o755, size: 3, blob: 'b'.repeat(40) },
        after: null,
      },
      { path: 'b', before: null, after: { hash: 'c'.repeat(64), mode: 0o644 } },
    ],
  };

  it('round-trips', () => {
    expect(decodeManifest(encodeManifest(manifest), manifest.id)).toEqual(manifest);
  });

  it.each([
    ['not JSON', new TextEncoder().encode('{')],
    ['not UTF-8', new Uint8Array([0xff, 0xfe])],
    ['another format', encodeManifest({ ...manifest, format: 'x' as 'patchsmith-snapshot' })],
    ['a later version', encodeManifest({ ...manifest, version: 2 as 1 })],
    [
      'a short hash',
      encodeManifest({
        ...manifest,
        entries: [{ path: 'a', before: null, after: { hash: 'ab', mode: 0o644 } }],
      }),
    ],
    [
      'a bad mode',
      encodeManifest({
        ...manifest,
        entries: [{ path: 'a', before: null, after: { hash: 'a'.repeat(64), mode: -1 } }],
      }),
    ],
    ['an empty path', encodeManifest({ ...manifest, entries: [{ path: '', before: null, after: null }] })],
  ])('refuses %s with STATE_INVALID', (_, bytes) => {
    expect(() => decodeManifest(bytes, manifest.id)).toThrow(
      expect.objectContaining({ code: 'STATE_INVALID' }),
    );
  });
});

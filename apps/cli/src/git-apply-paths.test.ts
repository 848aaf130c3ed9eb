import { parseEdits } from '@patchsmith/grammar';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gitApplyPaths } from './git-apply-paths.js';

// The law of git apply's subfolder rule over `diff --git` sections: a section whose path lies below
// the folder is kept with the folder's prefix removed, every other one is skipped and named; a
// traditional section's names that do not start with the folder are left as they are.

const segment = fc.constantFrom('a', 'b', 'src', 'sub', '..x', 'x.ts');
const treePath = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `${s.join('/')}.txt`);
const folder = fc
  .array(fc.constantFrom('a', 'src', 'sub'), { minLength: 1, maxLength: 2 })
  .map((s) => `${s.join('/')}/`);

const gitSection = (path: string) =>
  `diff --git a/${path} b/${path}\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-x\n+y\n`;

function script(text: string) {
  const parsed = parseEdits(text, 'unified');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.value;
}

describe('gitApplyPaths', () => {
  it("keeps a 'diff --git' section below the folder without the prefix, skips the others", () => {
    fc.assert(
      fc.property(fc.uniqueArray(treePath, { minLength: 1, maxLength: 5 }), folder, (paths, prefix) => {
        const text = paths.map(gitSection).join('');
        const skipped: string[] = [];
        const result = gitApplyPaths(script(text), { prefix, text }, skipped);
        const below = paths.filter((p) => p.startsWith(prefix));
        expect(skipped).toEqual(paths.filter((p) => !p.startsWith(prefix)));
        if (below.length === 0) {
          expect(result).toMatchObject({ ok: false, errors: [{ code: 'PATH_OUTSIDE_ROOT' }] });
          return;
        }
        expect(result.ok && result.value.operations.map((op) => op.path)).toEqual(
          below.map((p) => p.slice(prefix.length)),
        );
      }),
    );
  });

  it('at the top of a repository (no prefix), the script is the one parsed', () => {
    fc.assert(
      fc.property(fc.uniqueArray(treePath, { minLength: 1, maxLength: 5 }), (paths) => {
        const text = paths.map(gitSection).join('');
        const skipped: string[] = [];
        expect(gitApplyPaths(script(text), { prefix: '', text }, skipped)).toEqual({
          ok: true,
          value: script(text),
        });
        expect(skipped).toEqual([]);
      }),
    );
  });

  it('a traditional section stays relative to the folder unless its names start with it', () => {
    const text =
      '--- a/src/x.txt\n+++ b/src/x.txt\n@@ -1 +1 @@\n-x\n+y\n--- a/y.txt\n+++ b/y.txt\n@@ -1 +1 @@\n-x\n+y\n';
    const result = gitApplyPaths(script(text), { prefix: 'src/', text }, []);
    expect(result.ok && result.value.operations.map((op) => op.path)).toEqual(['x.txt', 'y.txt']);
  });
});

/** Symbolic links in the plan: which paths are read as links, and what a link the patch makes may point at. */
import { SYMLINK_MODE } from '@patchsmith/core';
import { parseEdits } from '@patchsmith/grammar';
import { describe, expect, it } from 'vitest';
import { linkPaths } from './links.js';
import { planEdits } from './plan-edits.js';
import { printUnifiedDiff } from './print-unified-diff.js';
import { files, ROOT } from './test-support/script.js';
import type { FileState } from './types.js';

const encoder = new TextEncoder();
const link = (target: string): FileState => ({
  kind: 'file',
  bytes: encoder.encode(target),
  mode: SYMLINK_MODE,
});
const text = (...lines: string[]) => `${lines.join('\n')}\n`;
const noNewline = '\\ No newline at end of file';
const newLink = (path: string, target: string) =>
  text(
    `diff --git a/${path} b/${path}`,
    'new file mode 120000',
    '--- /dev/null',
    `+++ b/${path}`,
    '@@ -0,0 +1 @@',
    `+${target}`,
    noNewline,
  );

function parsed(patch: string) {
  const result = parseEdits(patch, 'unified');
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

describe('links in the plan', () => {
  it('linkPaths names the links a diff changes or deletes as links, not the ones it creates', () => {
    const retarget = text(
      'diff --git a/l b/l',
      'index 1111111..2222222 120000',
      '--- a/l',
      '+++ b/l',
      '@@ -1 +1 @@',
      '-a',
      noNewline,
      '+b',
      noNewline,
    );
    const gone = text(
      'diff --git a/m b/m',
      'deleted file mode 120000',
      '--- a/m',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-a',
      noNewline,
    );
    expect(linkPaths(parsed(retarget + gone + newLink('n', 'a')), ROOT)).toStrictEqual(['l', 'm']);
  });

  it('a retarget keeps the link a link, with the new target as its bytes', () => {
    const retarget = text(
      'diff --git a/l b/l',
      'index 1111111..2222222 120000',
      '--- a/l',
      '+++ b/l',
      '@@ -1 +1 @@',
      '-a',
      noNewline,
      '+sub/b',
      noNewline,
    );
    const planned = planEdits(parsed(retarget), files({ l: link('a') }), { root: ROOT });
    expect(planned.ok && planned.plan.writes[0]!.after).toStrictEqual({
      bytes: encoder.encode('sub/b'),
      mode: SYMLINK_MODE,
    });
  });

  it('a link change of a path that holds a regular file is NOT_A_FILE', () => {
    const gone = text(
      'diff --git a/m b/m',
      'deleted file mode 120000',
      '--- a/m',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-a',
      noNewline,
    );
    const planned = planEdits(
      parsed(gone),
      files({ m: { kind: 'file', bytes: encoder.encode('a'), mode: 0o644 } }),
      { root: ROOT },
    );
    expect(!planned.ok && planned.errors[0]).toMatchObject({ code: 'NOT_A_FILE', path: 'm', line: 1 });
  });

  it.each([
    ['sub/x', 'a/l', true],
    ['../b', 'a/l', true],
    ['../../b', 'a/l', false],
    ['/etc/passwd', 'l', false],
    ['C:\\\\Windows', 'l', false],
    ['a/../../x', 'l', false],
    ['a/../b', 'l', false],
  ])('a new link to %s at %s is allowed: %s', (target, path, allowed) => {
    const planned = planEdits(parsed(newLink(path, target)), files({ [path]: { kind: 'missing' } }), {
      root: ROOT,
    });
    expect(planned.ok).toBe(allowed);
    if (!planned.ok) expect(planned.errors[0]).toMatchObject({ code: 'PATH_OUTSIDE_ROOT', path });
  });
});

it('printUnifiedDiff prints links as git does (modes 120000, an index line for a retarget), and reads back to the same writes', () => {
  const retarget = text(
    'diff --git a/l b/l',
    'index 1111111..2222222 120000',
    '--- a/l',
    '+++ b/l',
    '@@ -1 +1 @@',
    '-a',
    noNewline,
    '+b',
    noNewline,
  );
  const gone = text(
    'diff --git a/m b/m',
    'deleted file mode 120000',
    '--- a/m',
    '+++ /dev/null',
    '@@ -1 +0,0 @@',
    '-a',
    noNewline,
  );
  const state = files({ l: link('a'), m: link('a'), n: { kind: 'missing' } });
  const first = planEdits(parsed(retarget + gone + newLink('n', 'sub/x')), state, { root: ROOT });
  if (!first.ok) throw new Error(JSON.stringify(first.errors));
  const printed = printUnifiedDiff(first.plan);
  expect(printed).toContain('index 2e65efe..63d8dbd 120000\n');
  expect(printed).toContain('deleted file mode 120000\n');
  expect(printed).toContain('new file mode 120000\n');
  const again = planEdits(parsed(printed), state, { root: ROOT });
  expect(again.ok && again.plan.writes.map((w) => [w.path, w.after])).toStrictEqual(
    first.plan.writes.map((w) => [w.path, w.after]),
  );
});

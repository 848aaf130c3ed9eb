/**
 * The rules that keep a unified diff from succeeding silently (SPEC §1, issue 12), one by one: what
 * ends a hunk, which hunks and headers are refused (with the line they name), how names of
 * traditional and git diffs are read, and what lenient readings of real `git diff` / `diff -u`
 * output stay.
 */

import type { DeleteFile, EditError, Operation, UpdateFile } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { parseUnified } from './parse-unified.js';
import { hasEpochTimestamp } from './unified-names.js';

const text = (...lines: string[]) => `${lines.join('\n')}\n`;
const header = ['--- a/f', '+++ b/f'];

function refused(input: string): EditError {
  const r = parseUnified(input);
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  expect(r.errors).toHaveLength(1);
  return r.errors[0]!;
}

function operations(input: string): Operation[] {
  const r = parseUnified(input);
  if (!r.ok) throw new Error(`expected a script, got ${JSON.stringify(r.errors)}`);
  return r.value.operations;
}

const onlyUpdate = (input: string) => {
  const ops = operations(input);
  expect(ops).toHaveLength(1);
  return ops[0] as UpdateFile;
};

describe('a line without a hunk prefix ends the hunk', () => {
  it('right after the header: the hunk is empty (PARSE_ERROR naming that line)', () => {
    const error = refused(text(...header, '@@ -1,2 +1,2 @@', 'a', '-b', '+c'));
    expect(error).toMatchObject({ code: 'PARSE_ERROR', line: 4 });
    expect(error.message).toMatch(/^line 4: expected a hunk line .* the hunk is empty; found "a"$/);
  });

  it('at the end of the input too', () => {
    expect(refused(text(...header, '@@ -1 +1 @@'))).toMatchObject({ code: 'PARSE_ERROR', line: 4 });
  });

  it('while the counts say lines remain: PARSE_ERROR naming the line and the counts', () => {
    const error = refused(text(...header, '@@ -1,3 +1,3 @@', ' a', 'b', '+B', ' c'));
    expect(error.line).toBe(5);
    expect(error.message).toMatch(
      /counts of the hunk at line 3 say 2 more old lines .* and 2 more new lines/,
    );
  });

  it('before more hunk lines, even when the counts are done or absent', () => {
    expect(refused(text(...header, '@@ -1 +1 @@', '-a', '+A', 'and also', '+x')).line).toBe(6);
    expect(refused(text(...header, '@@', ' a', 'b', '-c')).line).toBe(5);
  });

  it('a hunk header after unrelated text is a patch fragment without header', () => {
    const error = refused(text(...header, '@@ -1 +1 @@', '-a', '+A', 'then', '@@ -5 +5 @@', '-e', '+E'));
    expect(error).toMatchObject({ code: 'PARSE_ERROR', line: 7 });
    expect(error.message).toMatch(/patch fragment without header: .* after line 6 \("then"\)/);
    expect(refused(text('Some prose', '@@ -1 +1 @@', '-a', '+b')).line).toBe(2);
    expect(refused(text(...header, 'junk', '@@ -1 +1 @@', '-a', '+b')).line).toBe(3);
  });
});

describe('what stays lenient', () => {
  it('counts may run short at the end, at the next hunk and at the next file', () => {
    expect(onlyUpdate(text(...header, '@@ -1,5 +1,5 @@', '-a', '+b')).chunks).toHaveLength(1);
    expect(
      onlyUpdate(text(...header, '@@ -1,5 +1,5 @@', '-a', '+b', '@@ -9 +9 @@', '-x', '+y')).chunks,
    ).toHaveLength(2);
    expect(
      operations(
        text(
          ...header,
          '@@ -1,5 +1,5 @@',
          '-a',
          '+b',
          'diff --git a/g b/g',
          '--- a/g',
          '+++ b/g',
          '@@ -1 +1 @@',
          '-c',
          '+d',
        ),
      ),
    ).toHaveLength(2);
  });

  it('an empty line is empty context inside the counts, and also beyond them when hunk lines follow', () => {
    const op = onlyUpdate(text(...header, '@@ -1,2 +1,2 @@', '-a', '+A', ' b', '', ' c', '+d'));
    expect(op.chunks[0]!.lines.map((l) => [l.kind, l.text])).toStrictEqual([
      ['remove', 'a'],
      ['add', 'A'],
      ['context', 'b'],
      ['context', ''],
      ['context', 'c'],
      ['add', 'd'],
    ]);
  });

  it('empty lines between hunks separate them; text after the last hunk and between files is skipped', () => {
    expect(
      onlyUpdate(text(...header, '@@ -1 +1 @@', '-a', '+A', '', '', '@@ -5 +5 @@', '-e', '+E')).chunks,
    ).toHaveLength(2);
    const ops = operations(
      text(
        'From 1 Mon Sep 17 00:00:00 2001',
        'Subject: [PATCH] x',
        '',
        '---',
        ' f | 2 +-',
        '',
        'diff --git a/f b/f',
        'index 1..2 100644',
        ...header,
        '@@ -1 +1 @@',
        '-a',
        '+A',
        '-- ',
        '2.39.5',
        '',
      ),
    );
    expect(ops).toHaveLength(1);
  });

  it('a diff pasted in prose ends at its closing fence, even with counts left', () => {
    const op = onlyUpdate(
      text('Here:', '```diff', ...header, '@@ -1,4 +1,4 @@', '-a', '+A', '```', '- done'),
    );
    expect(op.chunks[0]!.lines).toHaveLength(2);
  });
});

describe('names of traditional diffs', () => {
  it('differing names are never a rename: git’s choice, with the other name kept for the planner', () => {
    expect(onlyUpdate(text('--- f.orig', '+++ f', '@@ -1 +1 @@', '-a', '+b'))).toMatchObject({
      path: 'f',
      otherPath: 'f.orig',
    });
    expect(onlyUpdate(text('--- f', '+++ f.new', '@@ -1 +1 @@', '-a', '+b'))).toMatchObject({
      path: 'f',
      otherPath: 'f.new',
    });
    const op = onlyUpdate(text('--- x', '+++ y', '@@ -1 +1 @@', '-a', '+b'));
    expect(op).toMatchObject({ path: 'y', otherPath: 'x' });
    expect(op.movePath).toBeUndefined();
  });

  it('reads a name quoted in part, as `diff -u "a/"sub/f` writes it (git t4120)', () => {
    expect(onlyUpdate(text('--- "a/"sub/f', '+++ "b/"sub/f', '@@ -1 +1 @@', '-a', '+b')).path).toBe('sub/f');
    expect(refused(text('--- "a/"s"u"b', '+++ b/sub', '@@ -1 +1 @@', '-a', '+b')).line).toBe(1);
  });

  it('GNU epoch timestamps create and delete, in any time zone', () => {
    const del = operations(
      text(
        '--- f\t2024-01-01 10:00:00.000000000 +0100',
        '+++ f\t1969-12-31 19:00:00.000000000 -0500',
        '@@ -1 +0,0 @@',
        '-a',
      ),
    );
    expect(del).toMatchObject([{ kind: 'delete', path: 'f' }]);
    const add = operations(
      text(
        '--- a/n\t1970-01-01 00:00:00.000000000 +0000',
        '+++ b/n\t2024-01-01 10:00:00 +0000',
        '@@ -0,0 +1 @@',
        '+x',
      ),
    );
    expect(add).toMatchObject([{ kind: 'add', path: 'n', content: 'x\n' }]);
  });

  it.each([
    ['1970-01-01 00:00:00 +0000', true],
    ['1970-01-01 00:00:00.000000000 +0000', true],
    ['1970-01-01 05:30:00.000000000 +0530', true],
    ['1969-12-31 16:00:00 -08:00', true],
    ['1970-01-01 00:00:01 +0000', false],
    ['1970-01-01 00:00:00.5 +0000', false],
    ['1970-01-01 01:00:00 +0000', false],
    ['2024-01-01 00:00:00 +0000', false],
  ])('%s is the epoch: %s', (stamp, epoch) => {
    expect(hasEpochTimestamp(`f\t${stamp}`)).toBe(epoch);
  });
});

describe('headers that contradict each other', () => {
  it.each([
    [
      '+++ names another file',
      ['diff --git a/f b/f', '--- a/f', '+++ b/f-blah', '@@ -1 +1 @@', '-a', '+b'],
      3,
    ],
    ['--- names another file', ['diff --git a/f b/f', '--- a/g', '+++ b/f', '@@ -1 +1 @@', '-a', '+b'], 2],
    [
      'two names without rename lines',
      ['diff --git a/f b/g', '--- a/f', '+++ b/g', '@@ -1 +1 @@', '-a', '+b'],
      1,
    ],
    [
      '--- differs from rename from',
      ['diff --git a/f b/g', 'rename from f', 'rename to g', '--- a/x', '+++ b/g', '@@ -1 +1 @@', '-a', '+b'],
      4,
    ],
    [
      'a rename from /dev/null',
      [
        'diff --git a/f b/g',
        'rename from f',
        'rename to g',
        '--- /dev/null',
        '+++ b/g',
        '@@ -0,0 +1 @@',
        '+b',
      ],
      4,
    ],
    [
      'new file and rename',
      ['diff --git a/f b/g', 'new file mode 100644', 'rename from f', 'rename to g'],
      3,
    ],
    [
      'deleted file and copy',
      ['diff --git a/f b/g', 'deleted file mode 100644', 'copy from f', 'copy to g'],
      3,
    ],
    ['new and deleted file', ['diff --git a/f b/f', 'deleted file mode 100644', 'new file mode 100644'], 3],
    [
      'deleted file with +++ b/f',
      ['diff --git a/f b/f', 'deleted file mode 100644', '--- a/f', '+++ b/f', '@@ -1 +0,0 @@', '-a'],
      4,
    ],
    ['copy to without copy from', ['diff --git a/f b/g', 'copy to g'], 2],
    ['a quoted name that is not UTF-8', ['--- "a/\\351"', '+++ "b/\\351"', '@@ -1 +1 @@', '-a', '+b'], 1],
  ])('%s is a PARSE_ERROR', (_what, lines, line) => {
    expect(refused(text(...lines))).toMatchObject({ code: 'PARSE_ERROR', line });
  });

  it('a git section that changes nothing (only an index line, or junk in its header) is refused', () => {
    expect(refused(text('diff --git a/f b/f', 'index 1..2 100644')).line).toBe(3);
    expect(
      refused(text('diff --git a/f b/f', 'index 1..2 100644', 'junk', ...header, '@@ -1 +1 @@', '-a', '+b'))
        .line,
    ).toBe(3);
    expect(refused(text(...header)).message).toMatch(
      /found the end of the diff: the section changes nothing/,
    );
  });
});

describe('what is not a two-sided diff', () => {
  it('a combined diff of a merge (`@@@`) is refused, never read as hunk lines', () => {
    const combined = text(
      'diff --cc f',
      'index 1,2..3',
      ...header,
      '@@@ -1,2 -1,2 +1,3 @@@',
      '- a',
      ' -b',
      '++c',
    );
    expect(refused(combined)).toMatchObject({
      code: 'PARSE_ERROR',
      line: 5,
      message: expect.stringMatching(/combined diff/),
    });
  });
});

describe('created and deleted files', () => {
  it('a deletion keeps its hunks for the planner, which checks they remove the whole file', () => {
    const [op] = operations(
      text('--- a/f', '+++ /dev/null', '@@ -1,2 +0,0 @@', '-a', '-b', '\\ No newline at end of file'),
    ) as [DeleteFile];
    expect(op.chunks?.[0]?.lines.map((l) => l.text)).toStrictEqual(['a', 'b']);
    expect(op.oldNoNewline).toBe(6);
  });

  it('a deletion that keeps a line, and a creation that needs one, are refused', () => {
    expect(refused(text('--- a/f', '+++ /dev/null', '@@ -1,2 +0,1 @@', '-a', ' b')).message).toMatch(
      /deleted file still has contents/,
    );
    expect(refused(text('--- /dev/null', '+++ b/f', '@@ -0,0 +1,2 @@', '+a', '-b')).message).toMatch(
      /new file depends on old contents/,
    );
  });
});

describe('\\ No newline at end of file', () => {
  it('after a context or removed line: the file must end without a newline (checked by the planner)', () => {
    expect(onlyUpdate(text(...header, '@@ -1 +1 @@', ' a', '\\ No newline at end of file'))).toMatchObject({
      oldNoNewline: 5,
      finalNewline: false,
    });
    expect(
      onlyUpdate(text(...header, '@@ -1 +1 @@', '-a', '+b', '\\ No newline at end of file')),
    ).not.toHaveProperty('oldNoNewline');
  });

  it.each([
    ['as the first hunk line', ['@@ -1 +1 @@', '\\ No newline at end of file', '-a', '+b'], 4],
    [
      'before another line of its side',
      ['@@ -1,2 +1 @@', '-a', '\\ No newline at end of file', '-b', '+c'],
      5,
    ],
    [
      'before another hunk',
      ['@@ -1 +1 @@', '-a', '+b', '\\ No newline at end of file', '@@ -3 +3 @@', '-c', '+d'],
      6,
    ],
  ])('%s is PARSE_ERROR at the marker', (_what, lines, line) => {
    expect(refused(text(...header, ...lines))).toMatchObject({ code: 'PARSE_ERROR', line });
  });
});

describe('text that UTF-8 cannot carry', () => {
  it('a lone surrogate is PARSE_ERROR naming its line and column', () => {
    expect(refused(text(...header, '@@ -1 +1 @@', '-a', '+x\ud800'))).toMatchObject({
      code: 'PARSE_ERROR',
      line: 5,
      message: expect.stringMatching(/column 3 holds a lone UTF-16 surrogate/),
    });
    // A well-formed pair is fine.
    expect(onlyUpdate(text(...header, '@@ -1 +1 @@', '-a', '+\ud83d\ude00')).chunks[0]!.lines[1]!.text).toBe(
      '😀',
    );
  });
});

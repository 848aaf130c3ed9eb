import type { Operation } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { parseUnified } from './parse-unified.js';

const text = (...lines: string[]) => `${lines.join('\n')}\n`;

function ops(input: string): Operation[] {
  const r = parseUnified(input);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value.operations;
}

const hunk = ['@@ -1 +1 @@', '-a', '+b'];

describe('unified diffs as git and GNU patch read them', () => {
  it.each([
    [
      'after a tab',
      '--- a.txt\t2024-01-01 10:00:00.000000000 +0100',
      '+++ a.txt\t2024-01-02 10:00:00.000000000 +0100',
    ],
    ['after spaces', '--- a.txt  2024-01-01 10:00:00 +0100', '+++ a.txt  2024-01-02 10:00:00.123 +0100'],
    [
      'in ctime form after spaces',
      '--- a.txt   Mon Jan  1 10:00:00 2024',
      '+++ a.txt   Tue Jan  2 10:00:00 2024',
    ],
  ])('strips a timestamp %s', (_how, old, neu) => {
    expect(ops(text(old, neu, ...hunk)).map((o) => o.path)).toStrictEqual(['a.txt']);
  });

  it('an epoch timestamp after spaces still marks a created file (diff -N)', () => {
    const [op] = ops(
      text(
        '--- a.txt  1970-01-01 00:00:00 +0000',
        '+++ a.txt  2024-01-02 10:00:00 +0100',
        '@@ -0,0 +1 @@',
        '+b',
      ),
    );
    expect(op).toMatchObject({ kind: 'add', path: 'a.txt' });
  });

  it('a name holding a tab, quoted as git writes it', () => {
    expect(ops(text('--- "a/x\\ty.txt"', '+++ "b/x\\ty.txt"', ...hunk)).map((o) => o.path)).toStrictEqual([
      'x\ty.txt',
    ]);
  });

  it('a name with spaces but no timestamp keeps its spaces', () => {
    expect(ops(text('--- a/my file.txt', '+++ b/my file.txt', ...hunk)).map((o) => o.path)).toStrictEqual([
      'my file.txt',
    ]);
  });

  it('diff --git b/x a/x (prefixes swapped) edits x', () => {
    expect(ops(text('diff --git b/x a/x', '--- b/x', '+++ a/x', ...hunk))).toMatchObject([
      { kind: 'update', path: 'x' },
    ]);
  });

  it('git diff --src-prefix=old/ --dst-prefix=new/ edits the file below the prefixes', () => {
    expect(
      ops(text('diff --git old/src/x new/src/x', '--- old/src/x', '+++ new/src/x', ...hunk)),
    ).toMatchObject([{ kind: 'update', path: 'src/x' }]);
  });

  it('a path with backslashes is a name', () => {
    expect(ops(text('--- a\\b.txt', '+++ a\\b.txt', ...hunk)).map((o) => o.path)).toStrictEqual(['a\\b.txt']);
  });

  it('a removed line "-- x" shows as "--- x" and stays a body line while the counts say lines remain', () => {
    const [op] = ops(text('--- a', '+++ a', '@@ -1,3 +1,2 @@', ' x', '--- y', ' z'));
    expect(op!.kind === 'update' && op!.chunks[0]!.lines.map((l) => `${l.kind}:${l.text}`)).toStrictEqual([
      'context:x',
      'remove:-- y',
      'context:z',
    ]);
  });

  it('two hunks that share a context line become one chunk', () => {
    const [op] = ops(
      text(
        '--- a',
        '+++ a',
        '@@ -1,3 +1,3 @@',
        ' a',
        '-b',
        '+B',
        ' c',
        '@@ -3,3 +3,3 @@',
        ' c',
        '-d',
        '+D',
        ' e',
      ),
    );
    const chunks = op!.kind === 'update' ? op!.chunks : [];
    expect(chunks.map((c) => c.lines.map((l) => `${l.kind[0]}${l.text}`).join(' '))).toStrictEqual([
      'ca rb aB cc rd aD ce',
    ]);
    expect(chunks[0]!.hint).toStrictEqual({ oldStart: 1, oldLines: 5, newStart: 1, newLines: 5 });
  });

  it('hunks whose headers overlap on lines that differ stay apart', () => {
    const [op] = ops(
      text(
        '--- a',
        '+++ a',
        '@@ -1,3 +1,3 @@',
        ' a',
        '-b',
        '+B',
        ' c',
        '@@ -3,3 +3,3 @@',
        ' x',
        '-d',
        '+D',
        ' e',
      ),
    );
    expect(op!.kind === 'update' && op!.chunks.length).toBe(2);
  });
});

describe('a no-newline marker in the middle of a hunk', () => {
  it("after the old side's last line, with new lines after it: the old file ended there, the new one goes on", () => {
    const [op] = ops(
      text('--- a', '+++ a', '@@ -1 +1,2 @@', '-x', '\\ No newline at end of file', '+x', '+y'),
    );
    expect(op).toMatchObject({ kind: 'update', path: 'a' });
    expect(op!.kind === 'update' && op!.chunks[0]!.lines.map((l) => `${l.kind}:${l.text}`)).toStrictEqual([
      'remove:x',
      'add:x',
      'add:y',
    ]);
  });

  it('after a line its own side continues past is a PARSE_ERROR naming the marker (git would join the lines)', () => {
    const r = parseUnified(
      text('--- a', '+++ a', '@@ -1,2 +1,2 @@', '-a', '\\ No newline at end of file', '+b', ' c'),
    );
    expect(!r.ok && r.errors[0]).toMatchObject({ code: 'PARSE_ERROR', line: 5 });
  });
});

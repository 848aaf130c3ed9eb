import type { AddFile, EditError, EditScript, Operation, UpdateFile } from '@patchsmith/core';
import { SYMLINK_MODE } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { parseUnified } from './parse-unified.js';

const text = (...lines: string[]) => `${lines.join('\n')}\n`;

function parseOk(input: string): EditScript {
  const r = parseUnified(input);
  if (!r.ok) throw new Error(`expected a script, got ${JSON.stringify(r.errors)}`);
  return r.value;
}

function parseError(input: string): EditError {
  const r = parseUnified(input);
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  return r.errors[0]!;
}

function only(input: string): Operation {
  const ops = parseOk(input).operations;
  expect(ops).toHaveLength(1);
  return ops[0]!;
}

function onlyUpdate(input: string): UpdateFile {
  const op = only(input);
  if (op.kind !== 'update') throw new Error(`expected an update, got ${op.kind}`);
  return op;
}

function onlyAdd(input: string): AddFile {
  const op = only(input);
  if (op.kind !== 'add') throw new Error(`expected an add, got ${op.kind}`);
  return op;
}

const gitDiff = text(
  'diff --git a/a.txt b/a.txt',
  'index 4cb29ea..657b95b 100644',
  '--- a/a.txt',
  '+++ b/a.txt',
  '@@ -1,3 +1,4 @@ function heading',
  ' one',
  '-two',
  '+TWO',
  ' three',
  '+four',
  '\\ No newline at end of file',
  'diff --git a/b.txt b/b.txt',
  'new file mode 100755',
  'index 0000000..3e75765',
  '--- /dev/null',
  '+++ b/b.txt',
  '@@ -0,0 +1 @@',
  '+new',
  'diff --git a/gone.txt b/gone.txt',
  'deleted file mode 100644',
  'index 3e75765..0000000',
  '--- a/gone.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-bye',
  'diff --git a/n.txt "b/m \\303\\251.txt"',
  'old mode 100644',
  'new mode 100755',
  'similarity index 100%',
  'rename from n.txt',
  'rename to "m \\303\\251.txt"',
);

describe('parseUnified: git diff', () => {
  it('reads updates, adds, deletes and renames with their line numbers', () => {
    expect(parseOk(gitDiff)).toStrictEqual({
      format: 'unified',
      operations: [
        {
          kind: 'update',
          path: 'a.txt',
          chunks: [
            {
              anchors: [],
              hint: { oldStart: 1, oldLines: 3, newStart: 1, newLines: 4 },
              lines: [
                { kind: 'context', text: 'one', line: 6 },
                { kind: 'remove', text: 'two', line: 7 },
                { kind: 'add', text: 'TWO', line: 8 },
                { kind: 'context', text: 'three', line: 9 },
                { kind: 'add', text: 'four', line: 10 },
              ],
              endOfFile: true,
              line: 5,
            },
          ],
          line: 1,
          finalNewline: false,
        },
        { kind: 'add', path: 'b.txt', lines: ['new'], content: 'new\n', line: 12, mode: 0o755 },
        {
          kind: 'delete',
          path: 'gone.txt',
          line: 19,
          chunks: [
            {
              anchors: [],
              hint: { oldStart: 1, newStart: 0, newLines: 0 },
              lines: [{ kind: 'remove', text: 'bye', line: 25 }],
              endOfFile: false,
              line: 24,
            },
          ],
        },
        { kind: 'update', path: 'n.txt', movePath: 'm é.txt', chunks: [], line: 26, mode: 0o755 },
      ],
    });
  });

  it('treats the text after @@ … @@ as a heading, never as an anchor', () => {
    const op = onlyUpdate(text('--- a/x', '+++ b/x', '@@ -3,1 +3,1 @@ class App {', '-a', '+b'));
    expect(op.chunks[0]!.anchors).toStrictEqual([]);
    expect(op.chunks[0]!.hint).toStrictEqual({ oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 });
  });

  it('reads counts as hints: a hunk longer than its counts keeps its lines', () => {
    const op = onlyUpdate(text('--- a/x', '+++ b/x', '@@ -1,1 +1,1 @@', ' a', '-b', '+c', ' d'));
    expect(op.chunks[0]!.lines.map((l) => l.kind)).toStrictEqual(['context', 'remove', 'add', 'context']);
  });

  it('reads counts as hints: a hunk shorter than its counts ends at the next file', () => {
    const ops = parseOk(
      text(
        '--- a/x',
        '+++ b/x',
        '@@ -1,9 +1,9 @@',
        '-a',
        '+b',
        '--- a/y',
        '+++ b/y',
        '@@ -1 +1 @@',
        '-c',
        '+d',
      ),
    ).operations;
    expect(ops.map((o) => o.path)).toStrictEqual(['x', 'y']);
  });

  it('reads a removed line that looks like a header (`--- x`) as a removed line while counts expect it', () => {
    const op = onlyUpdate(text('--- a/x', '+++ b/x', '@@ -1,2 +1,1 @@', '-- a', '--- b', '+c'));
    expect(op.chunks[0]!.lines.map((l) => [l.kind, l.text])).toStrictEqual([
      ['remove', '- a'],
      ['remove', '-- b'],
      ['add', 'c'],
    ]);
  });

  it('ends a hunk at a format-patch signature and skips commit text around the diff', () => {
    const ops = parseOk(
      text(
        'From 1234 Mon Sep 17 00:00:00 2001',
        'Subject: [PATCH] change',
        '',
        '---',
        ' x | 2 +-',
        '',
        'diff --git a/x b/x',
        '--- a/x',
        '+++ b/x',
        '@@ -1 +1 @@',
        '-a',
        '+b',
        '-- ',
        '2.39.5',
      ),
    ).operations;
    expect(ops).toHaveLength(1);
    expect((ops[0] as UpdateFile).chunks[0]!.lines).toHaveLength(2);
  });

  it('reads a bare empty line inside counted lines as empty context', () => {
    const op = onlyUpdate(text('--- a/x', '+++ b/x', '@@ -1,3 +1,3 @@', ' a', '', '-b', '+c'));
    expect(op.chunks[0]!.lines.map((l) => [l.kind, l.text])).toStrictEqual([
      ['context', 'a'],
      ['context', ''],
      ['remove', 'b'],
      ['add', 'c'],
    ]);
  });

  it('accepts a bare @@ without numbers (no hint)', () => {
    const op = onlyUpdate(text('--- x', '+++ x', '@@', ' a', '-b', '+c', ''));
    expect(op.chunks[0]!.hint).toBeUndefined();
    expect(op.chunks[0]!.lines).toHaveLength(3);
  });

  it('strips diff -u timestamps and a/ b/ prefixes, and reads /dev/null adds and deletes', () => {
    const ops = parseOk(
      text(
        'diff -ruN old/x new/x',
        '--- old/x\t2024-01-01 10:00:00.000000000 +0000',
        '+++ new/x\t2024-01-02 10:00:00.000000000 +0000',
        '@@ -1 +1 @@',
        '-a',
        '+b',
        '--- /dev/null',
        '+++ b/new file.txt\t',
        '@@ -0,0 +1,2 @@',
        '+1',
        '+2',
        '--- a/old.txt',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-1',
      ),
    ).operations;
    // `diff -r old new`: the first folders go, as `patch -p1` strips them; the new side's name as
    // written is kept for the planner, edited when only it exists. Never a rename.
    expect(ops.map((o) => [o.kind, o.path])).toStrictEqual([
      ['update', 'x'],
      ['add', 'new file.txt'],
      ['delete', 'old.txt'],
    ]);
    expect((ops[1] as AddFile).content).toBe('1\n2\n');
    expect(ops[0]).toMatchObject({ otherPath: 'new/x' });
    expect(ops[0]).not.toHaveProperty('movePath');
  });

  it('a new file without a final newline keeps that (explicit marker)', () => {
    const op = onlyAdd(
      text('--- /dev/null', '+++ b/x', '@@ -0,0 +1,2 @@', '+1', '+2', '\\ No newline at end of file'),
    );
    expect(op.content).toBe('1\n2');
  });

  it('an empty new file and a mode-only change need no hunks', () => {
    const ops = parseOk(
      text(
        'diff --git a/empty b/empty',
        'new file mode 100644',
        'index 0000000..e69de29',
        'diff --git a/run.sh b/run.sh',
        'old mode 100755',
        'new mode 100644',
      ),
    ).operations;
    expect(ops).toStrictEqual([
      { kind: 'add', path: 'empty', lines: [], content: '', line: 1, mode: 0o644 },
      { kind: 'update', path: 'run.sh', chunks: [], line: 4, mode: 0o644 },
    ]);
  });

  it('a marker on the old side only says the new file ends with a newline', () => {
    const op = onlyUpdate(
      text('--- a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '\\ No newline at end of file', '+a'),
    );
    expect(op.finalNewline).toBe(true);
    expect(op.chunks[0]!.endOfFile).toBe(true);
  });

  it('reads copies as an update that keeps its source', () => {
    const op = onlyUpdate(
      text(
        'diff --git a/x b/y',
        'similarity index 90%',
        'copy from x',
        'copy to y',
        '--- a/x',
        '+++ b/y',
        '@@ -1 +1 @@',
        '-a',
        '+b',
      ),
    );
    expect(op).toMatchObject({ path: 'x', movePath: 'y', copy: true });
  });

  it("keeps a CRLF line's \\r in a byte-exact diff and marks its updates", () => {
    const op = onlyUpdate('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n x\r\n-y\r\n+z\r\n');
    expect(op.exactEndings).toBe(true);
    expect(op.chunks[0]!.lines.map((l) => l.text)).toStrictEqual(['x\r', 'y\r', 'z\r']);
  });

  it('drops the \\r of a diff saved with CRLF endings throughout', () => {
    const op = onlyUpdate('--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-y\r\n+z\r\n');
    expect(op.exactEndings).toBeUndefined();
    expect(op.chunks[0]!.lines.map((l) => l.text)).toStrictEqual(['y', 'z']);
  });

  it('reads quoted paths and names with spaces on the diff --git line', () => {
    const ops = parseOk(
      text(
        'diff --git "a/tab\\there" "b/tab\\there"',
        'new file mode 100644',
        'diff --git a/with space b/with space',
        'deleted file mode 100644',
      ),
    ).operations;
    expect(ops.map((o) => o.path)).toStrictEqual(['tab\there', 'with space']);
  });

  it('unwraps a markdown code fence', () => {
    const op = onlyUpdate(text('```diff', '--- a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '+b', '```'));
    expect(op.chunks[0]!.lines[0]!.line).toBe(5);
  });
});

describe('parseUnified: what it refuses', () => {
  it.each([
    [
      'a binary change',
      text('diff --git a/i.png b/i.png', 'index 1..2 100644', 'Binary files a/i.png and b/i.png differ'),
      3,
      /binary/,
    ],
    [
      'a git binary patch whose data is cut short',
      text('diff --git a/i.png b/i.png', 'index 1..2 100644', 'GIT binary patch', 'literal 5', 'zcmZ', ''),
      5,
      /malformed binary patch data/,
    ],
    [
      'a submodule',
      text(
        'diff --git a/m b/m',
        'new file mode 160000',
        'index 0000000..1234567',
        '--- /dev/null',
        '+++ b/m',
        '@@ -0,0 +1 @@',
        '+Subproject commit 1234567',
      ),
      2,
      /submodules are not supported/,
    ],
    ['a malformed mode', text('diff --git a/l b/l', 'new mode 7', '--- a/l', '+++ b/l'), 2, /octal/],
  ])('refuses %s with a PARSE_ERROR naming the line', (_what, input, line, message) => {
    const error = parseError(input);
    expect(error.code).toBe('PARSE_ERROR');
    expect(error.line).toBe(line);
    expect(error.message).toMatch(message);
  });

  it('deletes a binary file (nothing to apply)', () => {
    expect(
      only(
        text(
          'diff --git a/i.png b/i.png',
          'deleted file mode 100644',
          'Binary files a/i.png and /dev/null differ',
        ),
      ),
    ).toMatchObject({
      kind: 'delete',
      path: 'i.png',
    });
  });

  it('an empty text or a text with no file section is EMPTY_PATCH', () => {
    expect(parseError('\n\n').code).toBe('EMPTY_PATCH');
    expect(parseError('just some prose\n').code).toBe('EMPTY_PATCH');
  });
});

describe('a hunk that ends with an empty context line', () => {
  it('keeps that line although it is the last, space-only line of the input', () => {
    const diff = '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-x\n+y\n \n';
    const parsed = parseUnified(diff);
    expect(parsed.ok && parsed.value.operations[0]).toMatchObject({
      kind: 'update',
      chunks: [{ lines: [{ kind: 'remove' }, { kind: 'add' }, { kind: 'context', text: '' }] }],
    });
  });
});

describe('parseUnified: symbolic links (mode 120000, the content is the target)', () => {
  const noNewline = '\\ No newline at end of file';
  it('a new link is an Add of its target with SYMLINK_MODE', () => {
    const op = only(
      text(
        'diff --git a/l b/l',
        'new file mode 120000',
        'index 0000000..9b40195',
        '--- /dev/null',
        '+++ b/l',
        '@@ -0,0 +1 @@',
        '+sub/t',
        noNewline,
      ),
    );
    expect(op).toMatchObject({ kind: 'add', path: 'l', content: 'sub/t', mode: SYMLINK_MODE });
  });

  it("a changed target is an Update of the link itself (the index line's mode says link)", () => {
    const op = only(
      text(
        'diff --git a/l b/l',
        'index 4d1ae35..27fa349 120000',
        '--- a/l',
        '+++ b/l',
        '@@ -1 +1 @@',
        '-f',
        noNewline,
        '+other',
        noNewline,
      ),
    );
    expect(op).toMatchObject({
      kind: 'update',
      path: 'l',
      link: true,
      mode: SYMLINK_MODE,
      finalNewline: false,
    });
  });

  it('a deleted link is a Delete of the link itself', () => {
    const op = only(
      text(
        'diff --git a/l b/l',
        'deleted file mode 120000',
        'index 4d1ae35..0000000',
        '--- a/l',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-f',
        noNewline,
      ),
    );
    expect(op).toMatchObject({ kind: 'delete', path: 'l', link: true });
  });

  it('a regular file stays a regular file: no link flag, permission bits only', () => {
    const op = only(
      text(
        'diff --git a/x b/x',
        'index 1234567..89abcde 100755',
        '--- a/x',
        '+++ b/x',
        '@@ -1 +1 @@',
        '-a',
        '+b',
      ),
    );
    expect(op).not.toHaveProperty('link');
    expect(op).not.toHaveProperty('mode');
  });
});

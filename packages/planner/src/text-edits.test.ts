/** Planning of the operations str_replace, SEARCH/REPLACE and unified diffs compile to. */
import type { EditScript, Operation, ReplaceText } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { planEdits } from './plan-edits.js';
import { chunk, directory, file, files, missing, ROOT } from './test-support/script.js';
import type { FileState, Plan } from './types.js';

function script(...operations: Operation[]): EditScript {
  return { format: 'str_replace', operations };
}

function replace(
  path: string,
  search: string,
  replaceWith: string,
  extra: Partial<ReplaceText> = {},
): ReplaceText {
  return {
    kind: 'replace',
    path,
    search,
    replace: replaceWith,
    all: false,
    wholeLines: false,
    line: 1,
    ...extra,
  };
}

function plan(s: EditScript, state: Record<string, FileState>): Plan {
  const result = planEdits(s, files(state), { root: ROOT });
  if (!result.ok) throw new Error(`expected a plan, got ${JSON.stringify(result.errors)}`);
  return result.plan;
}

function errorsOf(s: EditScript, state: Record<string, FileState>) {
  const result = planEdits(s, files(state), { root: ROOT });
  if (result.ok) throw new Error('expected errors, got a plan');
  return result.errors;
}

/** Keeps a BOM, unlike the default decoder. */
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

function written(p: Plan, path: string): string | null | undefined {
  const write = p.writes.find((w) => w.path === path);
  return write === undefined ? undefined : write.after === null ? null : decoder.decode(write.after.bytes);
}

function writtenMode(p: Plan, path: string): number | undefined {
  return p.writes.find((w) => w.path === path)?.after?.mode;
}

/** The file `f` holding `content`, edited by `ops`. */
function edited(content: string, ...ops: Operation[]): string | null | undefined {
  return written(plan(script(...ops), { f: file(content) }), 'f');
}

describe('replace (str_replace)', () => {
  it.each([
    ['part of a line', 'let a = 1;\n', replace('f', 'a = 1', 'a = 2'), 'let a = 2;\n'],
    ['the replacement literally ($& and $$ stay)', 'x\n', replace('f', 'x', '$&$$$1'), '$&$$$1\n'],
    ['every occurrence with replace_all', 'a b a\na\n', replace('f', 'a', 'c', { all: true }), 'c b c\nc\n'],
    ['a whole line with its line break', 'a\nb\nc\n', replace('f', 'b\n', ''), 'a\nc\n'],
    ['into a CRLF file, with CRLF', 'a\r\nb\r\n', replace('f', 'a\n', 'x\ny\n'), 'x\r\ny\r\nb\r\n'],
    [
      "with trailing whitespace in the file (pass 2), keeping equal lines' bytes",
      'a  \nb\n',
      replace('f', 'a\nb\n', 'a\nB\n'),
      'a  \nB\n',
    ],
    [
      'with different indentation (pass 3), re-indenting',
      '    if x:\n        go()\n',
      replace('f', 'if x:\n    go()\n', 'if x:\n    stop()\n'),
      '    if x:\n        stop()\n',
    ],
    [
      'with look-alike quotes (pass 5)',
      'say(“hi”)\n',
      replace('f', 'say("hi")', 'say("bye")'),
      'say("bye")\n',
    ],
    ['keeping a missing final newline', 'a\nb', replace('f', 'b', 'c'), 'a\nc'],
    ['keeping a BOM', '\uFEFFa\n', replace('f', 'a', 'b'), '\uFEFFb\n'],
  ])('replaces %s', (_what, content, op, expected) => {
    expect(edited(content, op)).toBe(expected);
  });

  it('each edit searches the whole file as the previous ones left it (no cursor)', () => {
    expect(
      edited(
        'one\ntwo\n',
        replace('f', 'two', 'TWO'),
        replace('f', 'one', 'ONE'),
        replace('f', 'ONE\nTWO', 'both'),
      ),
    ).toBe('both\n');
  });

  it('is AMBIGUOUS with the candidate lines, and NO_MATCH with the nearest region', () => {
    expect(errorsOf(script(replace('f', 'x', 'y')), { f: file('x\na\nx\n') })).toMatchObject([
      { code: 'AMBIGUOUS', path: 'f', candidates: [1, 3] },
    ]);
    expect(errorsOf(script(replace('f', 'nothing like it', 'y')), { f: file('x\n') })).toMatchObject([
      { code: 'NO_MATCH', path: 'f' },
    ]);
  });

  it('refuses a missing, a folder or a binary file', () => {
    expect(errorsOf(script(replace('f', 'a', 'b')), { f: missing })[0]?.code).toBe('FILE_NOT_FOUND');
    expect(errorsOf(script(replace('f', 'a', 'b')), { f: directory })[0]?.code).toBe('NOT_A_FILE');
    expect(errorsOf(script(replace('f', 'a', 'b')), { f: file(new Uint8Array([97, 0])) })[0]?.code).toBe(
      'BINARY_FILE',
    );
  });
});

describe('replace (SEARCH/REPLACE blocks: whole lines, empty search creates or appends)', () => {
  const block = (path: string, search: string, replaceWith: string) =>
    replace(path, search, replaceWith, { wholeLines: true });

  it('matches whole lines only', () => {
    expect(errorsOf(script(block('f', 'b\n', 'c\n')), { f: file('ab\n') })[0]?.code).toBe('NO_MATCH');
    expect(edited('a\nb\n', block('f', 'b\n', 'c\n'))).toBe('a\nc\n');
  });

  it('an empty SEARCH creates a missing file with the replace text', () => {
    const p = plan(script(block('new.txt', '', 'hello\n')), { 'new.txt': missing });
    expect(written(p, 'new.txt')).toBe('hello\n');
    expect(p.files[0]?.op).toBe('add');
  });

  it('an empty SEARCH appends to an existing file, ending its last line first, in its line breaks', () => {
    expect(edited('a\r\nb', block('f', '', 'c\n'))).toBe('a\r\nb\r\nc\r\n');
  });
});

describe('insert (str_replace insert_line)', () => {
  const insert = (after: number, text: string): Operation => ({
    kind: 'insert',
    path: 'f',
    after,
    text,
    line: 1,
  });

  it.each([
    ['at the top', 'a\nb\n', insert(0, 'x\n'), 'x\na\nb\n'],
    ['after a line', 'a\nb\n', insert(1, 'x\ny'), 'a\nx\ny\nb\n'],
    ['at the end of a file without a final newline', 'a\nb', insert(2, 'c\n'), 'a\nb\nc'],
    ['into a CRLF file', 'a\r\nb\r\n', insert(1, 'x\n'), 'a\r\nx\r\nb\r\n'],
    ['into an empty file', '', insert(0, 'x'), 'x\n'],
    ['an empty new_str as one empty line, never a no-op', 'a\nb\n', insert(1, ''), 'a\n\nb\n'],
  ])('inserts %s', (_what, content, op, expected) => {
    expect(edited(content, op)).toBe(expected);
  });

  it('an insert_line out of range is INVALID_EDIT', () => {
    expect(errorsOf(script(insert(3, 'x')), { f: file('a\nb\n') })).toMatchObject([
      { code: 'INVALID_EDIT', path: 'f', message: expect.stringMatching(/0 to 2/) },
    ]);
  });
});

describe('add with exact content, and unified-diff updates', () => {
  it('creates a file with exact bytes (no newline added) and an explicit mode', () => {
    const p = plan(
      script({ kind: 'add', path: 'x.sh', lines: ['#!/bin/sh'], content: '#!/bin/sh', mode: 0o755, line: 1 }),
      {
        'x.sh': missing,
      },
    );
    expect(written(p, 'x.sh')).toBe('#!/bin/sh');
    expect(writtenMode(p, 'x.sh')).toBe(0o755);
  });

  it('sets an explicit mode on update, and an explicit final newline overrides the kept state', () => {
    const op: Operation = {
      kind: 'update',
      path: 'f',
      chunks: [chunk(' a\n-b\n+c', { endOfFile: true })],
      mode: 0o755,
      finalNewline: false,
      line: 1,
    };
    const p = plan(script(op), { f: file('a\nb\n') });
    expect(written(p, 'f')).toBe('a\nc');
    expect(writtenMode(p, 'f')).toBe(0o755);
    expect(edited('a\nb', { ...op, finalNewline: true, mode: undefined } as Operation)).toBe('a\nc\n');
  });

  it('with exact endings, CR-terminated texts match CRLF lines and added lines end as written', () => {
    const op: Operation = {
      kind: 'update',
      path: 'f',
      chunks: [chunk(' a\r\n-b\r\n+c\n+d\r', {})],
      exactEndings: true,
      line: 1,
    };
    const p = plan(script(op), { f: file('a\r\nb\r\n') });
    expect(written(p, 'f')).toBe('a\r\nc\nd\r\n');
    expect(p.files[0]?.chunks[0]?.pass).toBe('exact');
  });

  it('a copy writes the destination and leaves the source', () => {
    const op: Operation = {
      kind: 'update',
      path: 'a',
      movePath: 'b',
      copy: true,
      chunks: [chunk('-x\n+y')],
      line: 1,
    };
    const p = plan(script(op), { a: file('x\n'), b: missing });
    expect(written(p, 'b')).toBe('y\n');
    expect(written(p, 'a')).toBe('x\n');
    expect(p.files[0]).toMatchObject({ path: 'b', op: 'add' });
  });
});

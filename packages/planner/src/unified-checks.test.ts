/**
 * The planner's half of "never a silent success" (issue 12): a traditional diff's two names, a
 * deletion that must remove every line, a no-newline marker against the file, a plan that changes
 * nothing, and a patch that is already applied.
 */
import type { Chunk, DeleteFile, EditScript, ReplaceText, UpdateFile } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { planEdits } from './plan-edits.js';
import { add, chunk, file, files, missing, ROOT, script, text, update } from './test-support/script.js';
import { touchedPaths } from './touched-paths.js';
import type { FileState } from './types.js';

function planOf(s: EditScript, state: Record<string, FileState>) {
  return planEdits(s, files(state), { root: ROOT });
}

function errorsOf(s: EditScript, state: Record<string, FileState>) {
  const result = planOf(s, state);
  if (result.ok) throw new Error('expected errors, got a plan');
  return result.errors;
}

const edit = (otherPath: string): UpdateFile => ({ ...update('f', [chunk('-a\n+A')]), otherPath });
const deletion = (chunks: Chunk[], extra: Partial<DeleteFile> = {}): DeleteFile => ({
  kind: 'delete',
  path: 'f',
  line: 1,
  chunks,
  ...extra,
});

describe('a traditional diff with two names', () => {
  it('reads both names, and edits the preferred one when it exists, leaving the other untouched', () => {
    expect(touchedPaths(script(edit('f.orig')), ROOT)).toStrictEqual(['f', 'f.orig']);
    const result = planOf(script(edit('f.orig')), { f: file('a\n'), 'f.orig': file('a\n') });
    expect(
      result.ok && result.plan.writes.map((w) => [w.path, w.after && text(w.after.bytes)]),
    ).toStrictEqual([['f', 'A\n']]);
  });

  it('edits the other one when only it exists, and never renames', () => {
    const result = planOf(script(edit('g')), { f: missing, g: file('a\n') });
    expect(result.ok && result.plan.files.map((f) => [f.op, f.path, f.movePath])).toStrictEqual([
      ['update', 'g', undefined],
    ]);
    expect(result.ok && result.plan.writes.map((w) => w.path)).toStrictEqual(['g']);
  });

  it('is FILE_NOT_FOUND on the preferred name when neither exists; an escaping other name is refused', () => {
    expect(errorsOf(script(edit('g')), { f: missing, g: missing })).toMatchObject([
      { code: 'FILE_NOT_FOUND', path: 'f' },
    ]);
    expect(errorsOf(script(edit('../x')), { f: file('a\n') })).toMatchObject([
      { code: 'PATH_OUTSIDE_ROOT', path: '../x' },
    ]);
  });
});

describe('a deletion with hunks', () => {
  it('deletes a file whose every line its hunks remove', () => {
    const result = planOf(script(deletion([chunk('-a\n-b')])), { f: file('a\nb\n') });
    expect(result.ok && result.plan.writes).toMatchObject([{ path: 'f', after: null }]);
  });

  it('is NO_MATCH when lines would remain (git: removal patch leaves file contents) or do not match', () => {
    expect(errorsOf(script(deletion([chunk('-a')])), { f: file('a\nb\n') })).toMatchObject([
      {
        code: 'NO_MATCH',
        message: expect.stringMatching(/removal patch leaves file contents: .* remove 1 of its 2 lines/),
      },
    ]);
    expect(errorsOf(script(deletion([chunk('-x\n-y')])), { f: file('a\nb\n') })).toMatchObject([
      { code: 'NO_MATCH' },
    ]);
  });

  it('is BINARY_FILE against a binary file; without hunks any file goes', () => {
    const binary = file(new Uint8Array([0, 1, 2]));
    expect(errorsOf(script(deletion([chunk('-a')])), { f: binary })).toMatchObject([{ code: 'BINARY_FILE' }]);
    expect(planOf(script({ kind: 'delete', path: 'f', line: 1 }), { f: binary }).ok).toBe(true);
  });
});

describe('\\ No newline at end of file against the file', () => {
  const marked = (oldNoNewline: number): UpdateFile => ({
    ...update('f', [chunk(' a\n-b\n+B', { endOfFile: true })]),
    finalNewline: true,
    oldNoNewline,
  });

  it('applies to a file that ends without a newline', () => {
    const result = planOf(script(marked(6)), { f: file('a\nb') });
    expect(result.ok && text(result.plan.writes[0]!.after!.bytes)).toBe('a\nB\n');
  });

  it('is NO_MATCH, naming the marker, when the file ends with one', () => {
    expect(errorsOf(script(marked(6)), { f: file('a\nb\n') })).toMatchObject([
      {
        code: 'NO_MATCH',
        line: 6,
        message: expect.stringMatching(/does not end with a newline .* but it does/),
      },
    ]);
    expect(errorsOf(script(deletion([chunk('-a')], { oldNoNewline: 4 })), { f: file('a\n') })).toMatchObject([
      { code: 'NO_MATCH', line: 4 },
    ]);
  });
});

describe('a plan that changes nothing is EMPTY_PATCH', () => {
  const replace = (search: string, replace: string): ReplaceText => ({
    kind: 'replace',
    path: 'f',
    search,
    replace,
    all: false,
    wholeLines: true,
    line: 1,
  });

  it.each([
    ['a chunk whose lines stay', script(update('f', [chunk('-a\n+a')]))],
    ['an Add of the content the file has', script(add('f', ['a']))],
    ['a SEARCH/REPLACE that a tolerant match turns into the same bytes', script(replace('a  ', 'a'))],
    ['a mode already set', script({ ...update('f', []), mode: 0o644 })],
  ])('%s', (_what, s) => {
    expect(errorsOf(s, { f: file('a\n') })).toMatchObject([
      { code: 'EMPTY_PATCH', message: expect.stringMatching(/^the patch changes nothing: f /) },
    ]);
  });

  it('a mode change or a rename is a change', () => {
    expect(planOf(script({ ...update('f', []), mode: 0o755 }), { f: file('a\n') }).ok).toBe(true);
    expect(planOf(script(update('f', [], 'g')), { f: file('a\n'), g: missing }).ok).toBe(true);
  });
});

describe('a patch already applied', () => {
  it('is EMPTY_PATCH saying so when every change is already there (update, SEARCH/REPLACE)', () => {
    const reapplied = script(update('f', [chunk(' a\n-b\n+B'), chunk(' c\n+d')]));
    expect(errorsOf(reapplied, { f: file('a\nB\nc\nd\n') })).toStrictEqual([
      expect.objectContaining({
        code: 'EMPTY_PATCH',
        path: 'f',
        message: expect.stringMatching(/^the patch looks already applied/),
      }),
    ]);
    const block: ReplaceText = {
      kind: 'replace',
      path: 'f',
      search: 'b\n',
      replace: 'B\n',
      all: false,
      wholeLines: true,
      line: 1,
    };
    expect(errorsOf(script(block), { f: file('a\nB\n') })).toMatchObject([{ code: 'EMPTY_PATCH' }]);
  });

  it('is one NO_MATCH for that file when another file still changes, and plain NO_MATCH when the new lines are missing too', () => {
    const errors = errorsOf(script(update('f', [chunk('-b\n+B')]), add('g', ['x'])), {
      f: file('B\n'),
      g: missing,
    });
    expect(errors).toMatchObject([
      { code: 'NO_MATCH', path: 'f', message: expect.stringMatching(/looks already applied here/) },
    ]);
    expect(errorsOf(script(update('f', [chunk('-b\n+B')])), { f: file('x\n') })).toMatchObject([
      { code: 'NO_MATCH', message: expect.stringMatching(/could not find/) },
    ]);
  });
});

import { type EditScript, hashBytes } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { describeChange } from './diff.js';
import { planEdits } from './plan-edits.js';
import {
  add,
  chunk,
  del,
  directory,
  file,
  files,
  missing,
  ROOT,
  script,
  text,
  update,
} from './test-support/script.js';
import type { FileState, Plan } from './types.js';

function plan(s: EditScript, state: Record<string, FileState>, firstMatch = false): Plan {
  const result = planEdits(s, files(state), { root: ROOT, firstMatch });
  if (!result.ok) throw new Error(`expected a plan, got ${JSON.stringify(result.errors)}`);
  return result.plan;
}

function errorsOf(s: EditScript, state: Record<string, FileState>) {
  const result = planEdits(s, files(state), { root: ROOT });
  if (result.ok) throw new Error('expected errors, got a plan');
  return result.errors;
}

function contentOf(p: Plan, path: string): string | null | undefined {
  const write = p.writes.find((w) => w.path === path);
  if (write === undefined) return undefined;
  return write.after === null ? null : text(write.after.bytes);
}

/** Updates `path` (holding `content`) with one chunk and returns the resulting text. */
function updated(content: string, body: string, endOfFile = false): string | null | undefined {
  return contentOf(
    plan(script(update('f.txt', [chunk(body, { endOfFile })])), { 'f.txt': file(content) }),
    'f.txt',
  );
}

describe('line endings', () => {
  it.each([
    ['LF file', 'a\nb\nc\n', ' a\n-b\n+B\n+B2\n c', 'a\nB\nB2\nc\n'],
    [
      'CRLF file stays CRLF (conformance 023)',
      'one\r\ntwo\r\nthree\r\n',
      '-one\n+ONE\n two\n+between\n three',
      'ONE\r\ntwo\r\nbetween\r\nthree\r\n',
    ],
    [
      'mixed endings keep their own, new lines take the first (conformance 024)',
      'one\r\ntwo\rthree\nfour\r\n',
      ' one\n two\n-three\n+THREE\n four',
      'one\r\ntwo\rTHREE\r\nfour\r\n',
    ],
    ['bare CR file', 'a\rb\rc\r', ' b\n+x', 'a\rb\rx\rc\r'],
    ['untouched lines keep their endings around a change', 'a\nb\r\nc\rd\n', '-c\n+C', 'a\nb\r\nC\nd\n'],
    ['a file without any ending takes LF for new lines', 'only', ' only\n+next', 'only\nnext'],
    [
      'an unterminated last line that gets lines after it takes the first ending',
      'a\r\nb',
      ' b\n+c',
      'a\r\nb\r\nc',
    ],
    ['removing lines keeps the neighbours’ endings', 'a\r\nb\nc\r\n', '-b', 'a\r\nc\r\n'],
  ])('%s', (_name, content, body, expected) => {
    expect(updated(content, body)).toBe(expected);
  });
});

describe('final newline', () => {
  it.each([
    ['a file ending with a newline keeps it', 'a\nb\n', '-b\n+c', 'a\nc\n'],
    ['a file without one keeps not having it', 'a\nb', '-b\n+c', 'a\nc'],
    ['`a\\nb` with b removed becomes `a`', 'a\nb', ' a\n-b', 'a'],
    ['CRLF `a\\r\\nb` with b removed becomes `a`', 'a\r\nb', ' a\n-b', 'a'],
    ['appending to a file without one', 'a', '+b', 'a\nb'],
    [
      'pure addition appends at the end (conformance 016)',
      'line1\nline2\n',
      '+added line 1\n+added line 2',
      'line1\nline2\nadded line 1\nadded line 2\n',
    ],
    [
      'conformance 014',
      'no newline at end\n',
      '-no newline at end\n+first line\n+second line',
      'first line\nsecond line\n',
    ],
    ['removing every line leaves an empty file', 'a\nb\n', '-a\n-b', ''],
    ['adding to an empty file', '', '+a\n+b', 'a\nb\n'],
  ])('%s', (_name, content, body, expected) => {
    expect(updated(content, body)).toBe(expected);
  });

  it('a chunk marked End of File replaces the last lines (conformance 022)', () => {
    expect(updated('first\nsecond\n', ' first\n-second\n+second updated', true)).toBe(
      'first\nsecond updated\n',
    );
  });

  it('an Add gets a final newline when it has lines, and is empty otherwise', () => {
    const p = plan(script(add('a.txt', ['x', 'y']), add('empty.txt', []), add('blank.txt', [''])), {
      'a.txt': missing,
      'empty.txt': missing,
      'blank.txt': missing,
    });
    expect(contentOf(p, 'a.txt')).toBe('x\ny\n');
    expect(contentOf(p, 'empty.txt')).toBe('');
    expect(contentOf(p, 'blank.txt')).toBe('\n');
  });
});

describe('BOM', () => {
  const BOM = [0xef, 0xbb, 0xbf];
  const withBom = (s: string) => new Uint8Array([...BOM, ...new TextEncoder().encode(s)]);

  it('is ignored while matching the first line and kept in the output', () => {
    const p = plan(script(update('f.txt', [chunk('-first\n+FIRST\n second')])), {
      'f.txt': file(withBom('first\nsecond\n')),
    });
    expect(p.writes[0]?.after?.bytes).toEqual(withBom('FIRST\nsecond\n'));
  });

  it('stays when every line is removed', () => {
    const p = plan(script(update('f.txt', [chunk('-a')])), { 'f.txt': file(withBom('a\n')) });
    expect(p.writes[0]?.after?.bytes).toEqual(new Uint8Array(BOM));
  });
});

describe('binary files', () => {
  const invalid = new Uint8Array([0x61, 0xff, 0xfe, 0x0a]);
  const withNul = new TextEncoder().encode('a\0b\n');

  it.each([
    ['not valid UTF-8', invalid],
    ['a NUL byte', withNul],
  ])('an Update of a file with %s is refused with BINARY_FILE', (_why, bytes) => {
    const errors = errorsOf(script(update('bin', [chunk('+x')], undefined, 7)), { bin: file(bytes) });
    expect(errors).toEqual([expect.objectContaining({ code: 'BINARY_FILE', path: 'bin', line: 7 })]);
  });

  it('can be deleted', () => {
    const p = plan(script(del('bin')), { bin: file(invalid, 0o755) });
    expect(p.writes).toEqual([
      { path: 'bin', before: { hash: hashBytes(invalid), mode: 0o755, bytes: invalid }, after: null },
    ]);
    expect(p.files[0]).toMatchObject({ op: 'delete', additions: 0, deletions: 0 });
    expect(p.files[0]?.diff).toContain('Binary files bin and /dev/null differ');
  });

  it('can be moved, keeping its bytes and mode', () => {
    const p = plan(script(update('bin', [], 'moved/bin')), {
      bin: file(withNul, 0o755),
      'moved/bin': missing,
    });
    expect(p.writes).toEqual([
      { path: 'bin', before: { hash: hashBytes(withNul), mode: 0o755, bytes: withNul }, after: null },
      { path: 'moved/bin', before: null, after: { bytes: withNul, mode: 0o755 } },
    ]);
    expect(p.files[0]).toMatchObject({
      path: 'bin',
      op: 'move',
      movePath: 'moved/bin',
      additions: 0,
      deletions: 0,
    });
  });

  it('cannot be moved with chunks', () => {
    const errors = errorsOf(script(update('bin', [chunk('+x')], 'dest')), {
      bin: file(invalid),
      dest: missing,
    });
    expect(errors.map((e) => e.code)).toEqual(['BINARY_FILE']);
  });
});

describe('modes', () => {
  it('an update keeps the mode', () => {
    const p = plan(script(update('run.sh', [chunk('+echo')])), { 'run.sh': file('#!/bin/sh\n', 0o755) });
    expect(p.writes[0]?.after?.mode).toBe(0o755);
    expect(p.writes[0]?.before?.mode).toBe(0o755);
  });

  it('a move keeps the mode of the moved file, even over an existing destination', () => {
    const p = plan(script(update('run.sh', [chunk('+echo')], 'bin/run')), {
      'run.sh': file('#!/bin/sh\n', 0o755),
      'bin/run': file('old\n', 0o600),
    });
    expect(p.writes.find((w) => w.path === 'bin/run')).toMatchObject({
      before: { mode: 0o600 },
      after: { mode: 0o755 },
    });
  });

  it("a write's before state is what the reader gave: its hash, and the very bytes read", () => {
    const read = file('x\n') as Extract<FileState, { kind: 'file' }>;
    const given = { ...read, hash: 'f'.repeat(64) };
    const p = plan(script(update('a.txt', [chunk('-x\n+y')]), del('b.txt')), {
      'a.txt': given,
      'b.txt': read,
    });
    // The reader's hash is taken as it is (readFiles hashed the bytes once); absent, it is computed.
    expect(p.writes[0]?.before).toEqual({ hash: 'f'.repeat(64), mode: 0o644, bytes: given.bytes });
    expect(p.writes[0]?.before?.bytes).toBe(given.bytes);
    expect(p.writes[1]?.before?.hash).toBe(hashBytes(read.bytes));
  });

  it('an Add gets 0644, or the mode of the file it overwrites', () => {
    const p = plan(script(add('new.txt', ['a']), add('old.sh', ['b'])), {
      'new.txt': missing,
      'old.sh': file('x\n', 0o700),
    });
    expect(p.writes.map((w) => w.after?.mode)).toEqual([0o644, 0o700]);
  });
});

describe('operations and their file states', () => {
  it('an Add of an existing file overwrites it; its diff is against the old content', () => {
    const p = plan(script(add('a.txt', ['new'])), { 'a.txt': file('old\n') });
    expect(contentOf(p, 'a.txt')).toBe('new\n');
    expect(p.files[0]).toMatchObject({ op: 'add', additions: 1, deletions: 1 });
    expect(p.files[0]?.diff).toContain('--- a.txt\n+++ a.txt\n');
  });

  it('a Move onto an existing file overwrites it (conformance 010)', () => {
    const p = plan(script(update('old/name.txt', [chunk('-from\n+new')], 'renamed/dir/name.txt')), {
      'old/name.txt': file('from\n'),
      'renamed/dir/name.txt': file('existing\n'),
    });
    expect(contentOf(p, 'old/name.txt')).toBeNull();
    expect(contentOf(p, 'renamed/dir/name.txt')).toBe('new\n');
    expect(p.files[0]?.diff).toMatch(/^--- old\/name\.txt\n\+\+\+ renamed\/dir\/name\.txt\n@@/);
  });

  it('a Move to the same path (even spelled differently) is a plain update', () => {
    const p = plan(script(update('a.txt', [chunk('-a\n+b')], './x/../a.txt')), { 'a.txt': file('a\n') });
    expect(p.files[0]).toMatchObject({ path: 'a.txt', op: 'update' });
    expect(p.files[0]?.movePath).toBeUndefined();
    expect(p.writes).toEqual([
      expect.objectContaining({ path: 'a.txt', after: expect.objectContaining({ mode: 0o644 }) }),
    ]);
    expect(contentOf(p, 'a.txt')).toBe('b\n');
  });

  it('a pure rename keeps the bytes exactly', () => {
    const bytes = new TextEncoder().encode('a\r\nb');
    const p = plan(script(update('a', [], 'b')), { a: file(bytes), b: missing });
    expect(p.writes[1]?.after?.bytes).toEqual(bytes);
    expect(p.files[0]).toMatchObject({ additions: 0, deletions: 0, diff: '--- a\n+++ b\n', chunks: [] });
  });

  it('an Update with neither chunks nor move changes nothing: EMPTY_PATCH, never a plan', () => {
    expect(errorsOf(script(update('a', [])), { a: file('x\n') })).toEqual([
      expect.objectContaining({
        code: 'EMPTY_PATCH',
        path: 'a',
        message: expect.stringMatching(/changes nothing/),
      }),
    ]);
  });

  it('a Delete removes the file, counting its lines', () => {
    const p = plan(script(del('a.txt')), { 'a.txt': file('1\n2\n3\n') });
    expect(p.files[0]).toMatchObject({ op: 'delete', additions: 0, deletions: 3 });
    expect(p.files[0]?.diff).toBe('--- a.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-1\n-2\n-3\n');
  });

  it('an absolute path inside the root is canonicalised everywhere', () => {
    const p = plan(script(add(`${ROOT}/src/new.ts`, ['x'])), { 'src/new.ts': missing });
    expect(p.files[0]?.path).toBe('src/new.ts');
    expect(p.writes[0]?.path).toBe('src/new.ts');
  });
});

describe('composition in patch order', () => {
  it('Add then Update', () => {
    const p = plan(script(add('a', ['one', 'two']), update('a', [chunk('-two\n+2')])), { a: missing });
    expect(contentOf(p, 'a')).toBe('one\n2\n');
    expect(p.files.map((f) => f.op)).toEqual(['add', 'update']);
    expect(p.files[1]?.diff).toContain('--- a\n+++ a\n');
    expect(p.writes).toEqual([{ path: 'a', before: null, after: expect.objectContaining({ mode: 0o644 }) }]);
  });

  it('Update then Update (the second sees the first’s result)', () => {
    const p = plan(script(update('a', [chunk('-1\n+2')]), update('a', [chunk('-2\n+3')])), {
      a: file('1\n'),
    });
    expect(contentOf(p, 'a')).toBe('3\n');
    expect(p.writes).toHaveLength(1);
    expect(p.writes[0]?.before?.hash).toBe(hashBytes(new TextEncoder().encode('1\n')));
  });

  it('Update+Move then Update of the new path', () => {
    const p = plan(script(update('a', [chunk('-1\n+2')], 'b'), update('b', [chunk('-2\n+3')])), {
      a: file('1\n', 0o755),
      b: missing,
    });
    expect(contentOf(p, 'a')).toBeNull();
    expect(contentOf(p, 'b')).toBe('3\n');
    expect(p.writes.find((w) => w.path === 'b')?.after?.mode).toBe(0o755);
  });

  it('Delete then Add', () => {
    const p = plan(script(del('a'), add('a', ['fresh'])), { a: file('old\n', 0o600) });
    expect(contentOf(p, 'a')).toBe('fresh\n');
    expect(p.writes[0]?.after?.mode).toBe(0o644);
    expect(p.files[1]?.diff).toMatch(/^--- \/dev\/null\n\+\+\+ a\n/);
  });

  it('Add then Delete of a new path leaves no write at all: the patch changes nothing', () => {
    expect(errorsOf(script(add('tmp', ['x']), del('tmp')), { tmp: missing }).map((e) => e.code)).toEqual([
      'EMPTY_PATCH',
    ]);
    const p = plan(script(add('tmp', ['x']), del('tmp'), add('kept', ['y'])), {
      tmp: missing,
      kept: missing,
    });
    expect(p.files.map((f) => f.op)).toEqual(['add', 'delete', 'add']);
    expect(p.writes.map((w) => w.path)).toEqual(['kept']);
  });

  it('the source of a move is gone for later operations', () => {
    const errors = errorsOf(script(update('a', [], 'b', 1), update('a', [chunk('+x')], undefined, 5)), {
      a: file('x\n'),
      b: missing,
    });
    expect(errors).toEqual([expect.objectContaining({ code: 'FILE_NOT_FOUND', path: 'a', line: 5 })]);
  });

  it('Update after Delete is FILE_NOT_FOUND', () => {
    const errors = errorsOf(script(del('a', 1), update('a', [chunk('+x')], undefined, 3)), {
      a: file('x\n'),
    });
    expect(errors).toEqual([expect.objectContaining({ code: 'FILE_NOT_FOUND', path: 'a', line: 3 })]);
  });

  it('writes come in order of first touch', () => {
    const p = plan(script(add('z', ['1']), update('a', [chunk('+2')], 'm'), del('b')), {
      z: missing,
      a: file(''),
      m: missing,
      b: file('b\n'),
    });
    expect(p.writes.map((w) => w.path)).toEqual(['z', 'a', 'm', 'b']);
  });
});

describe('chunks', () => {
  it('several chunks apply in one pass, each reported with its pass and 1-based line', () => {
    const content = 'a\nb\nc\nd\ne\nf\n';
    const p = plan(script(update('f', [chunk(' a\n-b\n+B'), chunk('-e  \n+E')])), {
      f: file(content.replace('e\n', 'e\n')),
    });
    expect(contentOf(p, 'f')).toBe('a\nB\nc\nd\nE\nf\n');
    expect(p.files[0]?.chunks).toEqual([
      { chunk: 0, line: 1, pass: 'exact' },
      { chunk: 1, line: 5, pass: 'trailing-whitespace' },
    ]);
    expect(p.files[0]).toMatchObject({ additions: 2, deletions: 2 });
  });

  it('reports the indentation a chunk was corrected by, and re-indents added lines', () => {
    const p = plan(script(update('f.py', [chunk(' if x:\n-    a()\n+    b()')])), {
      'f.py': file('def f():\n    if x:\n        a()\n'),
    });
    expect(contentOf(p, 'f.py')).toBe('def f():\n    if x:\n        b()\n');
    expect(p.files[0]?.chunks[0]).toMatchObject({
      pass: 'indentation',
      indent: { prefix: '    ', side: 'file' },
    });
  });

  it('pure additions at the same place keep patch order', () => {
    const p = plan(script(update('f', [chunk('+x'), chunk('+y')])), { f: file('a\n') });
    expect(contentOf(p, 'f')).toBe('a\nx\ny\n');
  });

  it('a pure addition after an anchor inserts right after it', () => {
    const p = plan(script(update('f', [chunk('@@ def g():\n+    pass')])), {
      f: file('def f():\n    x\ndef g():\ndef h():\n'),
    });
    expect(contentOf(p, 'f')).toBe('def f():\n    x\ndef g():\n    pass\ndef h():\n');
  });

  it('a chunk replaced on a CRLF file with tolerant matching keeps the context bytes', () => {
    const p = plan(script(update('f', [chunk(' keep\n-old\n+new')])), { f: file('  keep  \r\nold\r\n') });
    expect(contentOf(p, 'f')).toBe('  keep  \r\nnew\r\n');
  });

  it('first-match picks the first of several candidates', () => {
    const s = script(update('f', [chunk('-x\n+y')]));
    expect(planEdits(s, files({ f: file('x\nx\n') }), { root: ROOT }).ok).toBe(false);
    expect(contentOf(plan(s, { f: file('x\nx\n') }, true), 'f')).toBe('y\nx\n');
  });

  it('an Update that changes nothing is EMPTY_PATCH; beside a real change it appears with an empty diff', () => {
    expect(errorsOf(script(update('f', [chunk(' a')])), { f: file('a\n') })).toEqual([
      expect.objectContaining({
        code: 'EMPTY_PATCH',
        message: expect.stringMatching(/^the patch changes nothing: f /),
      }),
    ]);
    const p = plan(script(update('f', [chunk(' a')]), add('g', ['x'])), { f: file('a\n'), g: missing });
    expect(p.files[0]).toMatchObject({ op: 'update', additions: 0, deletions: 0, diff: '--- f\n+++ f\n' });
    expect(contentOf(p, 'f')).toBe('a\n');
  });

  it('the diff shows every ending as LF and a missing final newline explicitly', () => {
    const p = plan(script(update('f', [chunk(' a\n-b\n+c')])), { f: file('a\r\nb') });
    expect(p.files[0]?.diff).toBe(
      '--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n',
    );
  });
});

describe('errors', () => {
  it.each([
    ['Update of a missing path', update('a', [chunk('+x')]), missing, 'FILE_NOT_FOUND'],
    ['Delete of a missing path (conformance 007)', del('a'), missing, 'FILE_NOT_FOUND'],
    ['Update of a directory', update('a', [chunk('+x')]), directory, 'NOT_A_FILE'],
    ['Delete of a directory (conformance 012)', del('a'), directory, 'NOT_A_FILE'],
    ['Add onto a directory', add('a', ['x']), directory, 'NOT_A_FILE'],
    ['pure rename of a missing path', update('a', [], 'b'), missing, 'FILE_NOT_FOUND'],
  ] as const)('%s', (_name, op, state, code) => {
    const errors = errorsOf(script(op), { a: state, b: missing });
    expect(errors).toEqual([expect.objectContaining({ code, path: 'a' })]);
  });

  it('a refused path reports the reader’s error for every kind of operation', () => {
    const refused: FileState = { kind: 'refused', code: 'PATH_OUTSIDE_ROOT', message: 'symlink points out' };
    for (const op of [add('a', []), del('a'), update('a', [chunk('+x')])]) {
      expect(errorsOf(script(op), { a: refused })).toEqual([
        { code: 'PATH_OUTSIDE_ROOT', message: 'symlink points out', path: 'a', line: 1 },
      ]);
    }
  });

  it('a Move onto a directory or a refused path fails', () => {
    const s = script(update('a', [], 'dir'), update('b', [], 'bad'));
    const errors = errorsOf(s, {
      a: file('x'),
      dir: directory,
      b: file('y'),
      bad: { kind: 'refused', code: 'IO_ERROR', message: 'EACCES' },
    });
    expect(errors.map((e) => [e.code, e.path])).toEqual([
      ['NOT_A_FILE', 'dir'],
      ['IO_ERROR', 'bad'],
    ]);
  });

  it('path policy errors name the raw path and the operation’s line', () => {
    const errors = errorsOf(
      script(add('../x', [], 2), del('.git/config', 4), update('ok', [], '/etc/passwd', 6)),
      { ok: file('') },
    );
    expect(errors).toEqual([
      expect.objectContaining({ code: 'PATH_OUTSIDE_ROOT', path: '../x', line: 2 }),
      expect.objectContaining({ code: 'PATH_INVALID', path: '.git/config', line: 4 }),
      expect.objectContaining({ code: 'PATH_OUTSIDE_ROOT', path: '/etc/passwd', line: 6 }),
    ]);
  });

  it('NO_MATCH carries the chunk index, the chunk’s patch line and the nearest region', () => {
    const errors = errorsOf(
      script(update('f', [chunk(' a', { line: 3 }), chunk('-beta gamma\n+x', { line: 5 })])),
      {
        f: file('a\nalpha\nbeta delta\n'),
      },
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'NO_MATCH', path: 'f', chunk: 1, line: 5 });
    expect(errors[0]?.nearest?.startLine).toBe(3);
  });

  it('AMBIGUOUS carries every candidate', () => {
    const errors = errorsOf(script(update('f', [chunk('-x\n+y', { line: 9 })])), { f: file('x\na\nx\n') });
    expect(errors).toEqual([
      expect.objectContaining({ code: 'AMBIGUOUS', chunk: 0, line: 9, candidates: [1, 3] }),
    ]);
  });

  it('collects every error of every operation and chunk instead of stopping at the first', () => {
    const s = script(
      update(
        'f',
        [chunk('-nope\n+x', { line: 2 }), chunk(' ok'), chunk('-also nope', { line: 8 })],
        undefined,
        1,
      ),
      del('missing', 10),
      add('dir', ['x'], 11),
      update('bin', [chunk('+x')], undefined, 12),
      add('../escape', [], 14),
    );
    const errors = errorsOf(s, {
      f: file('ok\n'),
      missing,
      dir: directory,
      bin: file(new Uint8Array([0, 1, 2])),
    });
    expect(errors.map((e) => [e.code, e.path, e.chunk, e.line])).toEqual([
      ['NO_MATCH', 'f', 0, 2],
      ['NO_MATCH', 'f', 2, 8],
      ['FILE_NOT_FOUND', 'missing', undefined, 10],
      ['NOT_A_FILE', 'dir', undefined, 11],
      ['BINARY_FILE', 'bin', undefined, 12],
      ['PATH_OUTSIDE_ROOT', '../escape', undefined, 14],
    ]);
  });

  it('an operation on a path where an earlier one failed is not reported again', () => {
    const errors = errorsOf(
      script(update('f', [chunk('-nope')]), update('f', [chunk('-also nope')]), del('g')),
      {
        f: file('a\n'),
        g: missing,
      },
    );
    expect(errors.map((e) => [e.code, e.path])).toEqual([
      ['NO_MATCH', 'f'],
      ['FILE_NOT_FOUND', 'g'],
    ]);
  });

  it('a file cannot be written below a file, nor over a folder of planned files (NOT_A_FILE)', () => {
    expect(errorsOf(script(add('a', ['x']), add('a/b', ['y'])), { a: missing, 'a/b': missing })).toEqual([
      expect.objectContaining({ code: 'NOT_A_FILE', path: 'a/b' }),
    ]);
    expect(
      errorsOf(script(add('a/b', ['y']), update('c', [], 'a')), { 'a/b': missing, c: file('z'), a: missing }),
    ).toEqual([expect.objectContaining({ code: 'NOT_A_FILE', path: 'a' })]);
    // Once the file is gone, the folder may be created.
    expect(plan(script(del('a'), add('a/b', ['y'])), { a: file('x'), 'a/b': missing }).writes).toHaveLength(
      2,
    );
  });

  it('a path the caller did not read is a programming error, thrown with a stable code', () => {
    expect(() => planEdits(script(del('unread')), files({}), { root: ROOT })).toThrow(
      expect.objectContaining({ name: 'PatchsmithError', code: 'IO_ERROR' }),
    );
  });
});

describe('scale', () => {
  it('plans 100 chunks in a 50,000-line CRLF file correctly', () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i}`);
    const chunks = Array.from({ length: 100 }, (_, k) => {
      const at = k * 500 + 7;
      return chunk(` ${lines[at - 1]}\n-${lines[at]}\n+changed ${k}\n+added ${k}\n ${lines[at + 1]}`);
    });
    const p = plan(script(update('big', chunks)), { big: file(`${lines.join('\r\n')}\r\n`) });
    const expected = lines.flatMap((l, i) =>
      (i - 7) % 500 === 0 ? [`changed ${(i - 7) / 500}`, `added ${(i - 7) / 500}`] : [l],
    );
    expect(contentOf(p, 'big')).toBe(`${expected.join('\r\n')}\r\n`);
    expect(p.files[0]).toMatchObject({ additions: 200, deletions: 100 });
    expect(p.files[0]?.chunks.map((c) => c.line)).toEqual(Array.from({ length: 100 }, (_, k) => k * 500 + 7));
  });
});

describe('similarity (opt-in)', () => {
  it('is off by default and, when asked for, lets a near copy match and reports itself', () => {
    const content =
      'function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.price;\n  return sum;\n}\n';
    const s = script(
      update('f.js', [
        chunk('-  let summ = 0;\n+  let sum = 1;\n   for (const item of items) sum += item.price;'),
      ]),
    );
    expect(planEdits(s, files({ 'f.js': file(content) }), { root: ROOT }).ok).toBe(false);
    const result = planEdits(s, files({ 'f.js': file(content) }), { root: ROOT, similarity: 0.8 });
    expect(result.ok && contentOf(result.plan, 'f.js')).toBe(content.replace('let sum = 0', 'let sum = 1'));
    expect(result.ok && result.plan.files[0]?.chunks[0]?.pass).toBe('similarity');
  });
});

describe('an Update diffed where its chunks are', () => {
  it.each([
    ['LF', 'a\nb\nc\nd\n', ' a\n-b\n+B\n c'],
    ['no final newline, edit at the end', 'a\nb\nc', ' b\n-c\n+C'],
    ['no final newline, lines added at the end', 'a\nb', ' b\n+c'],
    ['a CR ending meeting an LF-ended empty line (read back as one CRLF)', 'a\rb\r\n\nc\r', ' a\n-b\n '],
    ['a BOM-less file whose first line becomes U+FEFF', 'a\nb\n', '-a\n+\uFEFFa\n b'],
  ])('%s: the same diff as the whole files decoded', (_why, content, body) => {
    const p = plan(script(update('f.txt', [chunk(body)])), { 'f.txt': file(content) });
    const write = p.writes[0]!;
    expect(p.files[0]!.diff).toBe(
      describeChange('f.txt', 'f.txt', write.before!.bytes!, write.after!.bytes).diff,
    );
  });
});

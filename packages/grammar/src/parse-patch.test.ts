import type { Chunk, EditError, EditScript, Operation, UpdateFile } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse-patch.js';

/** Joins lines with `\n` and a final newline. */
const patch = (...lines: string[]) => `${lines.join('\n')}\n`;
const begin = '*** Begin Patch';
const end = '*** End Patch';

function parseOk(text: string): EditScript {
  const r = parsePatch(text);
  if (!r.ok) throw new Error(`expected a script, got ${JSON.stringify(r.errors)}`);
  return r.value;
}

function parseError(text: string): EditError {
  const r = parsePatch(text);
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  expect(r.errors).toHaveLength(1);
  return r.errors[0]!;
}

function onlyOp(text: string): Operation {
  const ops = parseOk(text).operations;
  expect(ops).toHaveLength(1);
  return ops[0]!;
}

function onlyUpdate(text: string): UpdateFile {
  const op = onlyOp(text);
  if (op.kind !== 'update') throw new Error(`expected an update, got ${op.kind}`);
  return op;
}

function onlyChunk(text: string): Chunk {
  const chunks = onlyUpdate(text).chunks;
  expect(chunks).toHaveLength(1);
  return chunks[0]!;
}

describe('parsePatch: the three operations', () => {
  it('reads an Add, a Delete and an Update with their line numbers', () => {
    const script = parseOk(
      patch(
        begin,
        '*** Add File: a.txt',
        '+one',
        '+',
        '*** Delete File: b.txt',
        '*** Update File: c.txt',
        '@@',
        ' x',
        '-y',
        '+z',
        end,
      ),
    );
    expect(script).toStrictEqual({
      format: 'codex',
      operations: [
        { kind: 'add', path: 'a.txt', lines: ['one', ''], line: 2 },
        { kind: 'delete', path: 'b.txt', line: 5 },
        {
          kind: 'update',
          path: 'c.txt',
          chunks: [
            {
              anchors: [],
              lines: [
                { kind: 'context', text: 'x', line: 8 },
                { kind: 'remove', text: 'y', line: 9 },
                { kind: 'add', text: 'z', line: 10 },
              ],
              endOfFile: false,
              line: 7,
            },
          ],
          line: 6,
        },
      ],
    });
  });

  it('reads an Add with no lines (an empty file)', () => {
    expect(onlyOp(patch(begin, '*** Add File: empty.txt', end))).toStrictEqual({
      kind: 'add',
      path: 'empty.txt',
      lines: [],
      line: 2,
    });
  });

  it('keeps the text of chunk lines byte for byte after the prefix (trailing spaces, tabs, unicode)', () => {
    const chunk = onlyChunk(
      patch(begin, '*** Update File: f', '@@', '   two spaces  ', '-\ttab', '+naïve ✅ ', end),
    );
    expect(chunk.lines.map((l) => l.text)).toStrictEqual(['  two spaces  ', '\ttab', 'naïve ✅ ']);
  });
});

describe('parsePatch: leniency of SPEC §1, one rule a row', () => {
  const update = (...body: string[]) => patch(begin, '*** Update File: f.txt', ...body, end);

  it.each([
    [
      'marker lines padded with spaces and tabs',
      patch(' *** Begin Patch  ', '*** Delete File: a', '\t*** End Patch \t'),
    ],
    ['file header padded (017)', patch(begin, '  *** Delete File: a', end)],
    ['header path trimmed', patch(begin, '*** Delete File:    a   ', end)],
    ['no space after the header colon', patch(begin, '*** Delete File:a', end)],
    [
      'blank lines after Begin, between operations and before End',
      patch(begin, '', '  ', '*** Delete File: a', '', end),
    ],
  ])('%s', (_name, text) => {
    expect(onlyOp(text)).toStrictEqual({ kind: 'delete', path: 'a', line: expect.any(Number) });
  });

  it('` *** End Patch` inside a chunk ends the patch (020)', () => {
    const chunk = onlyChunk(patch(begin, '*** Update File: f', '@@', '-one', '+two', ' *** End Patch'));
    expect(chunk.lines.map((l) => l.kind + l.text)).toStrictEqual(['removeone', 'addtwo']);
  });

  it('a padded `*** End of File` inside a chunk ends it at the end of the file', () => {
    const chunk = onlyChunk(update('@@', ' a', '+b', '  *** End of File ', ''));
    expect(chunk.endOfFile).toBe(true);
    expect(chunk.lines).toHaveLength(2);
  });

  it('inside a chunk, a line starting with a space is context even when the rest is a file header', () => {
    const chunk = onlyChunk(update('@@', ' *** Add File: x', ' *** Delete File: y', '-z'));
    expect(chunk.lines.map((l) => [l.kind, l.text])).toStrictEqual([
      ['context', '*** Add File: x'],
      ['context', '*** Delete File: y'],
      ['remove', 'z'],
    ]);
  });

  it('inside a chunk, a file header at column 0 (or after a tab) starts the next operation', () => {
    const ops = parseOk(
      update('@@', '-a', '*** Delete File: x', '*** Update File: g', '@@', '-b', '\t*** Delete File: y'),
    ).operations;
    expect(ops.map((o) => [o.kind, o.path, o.line])).toStrictEqual([
      ['update', 'f.txt', 2],
      ['delete', 'x', 5],
      ['update', 'g', 6],
      ['delete', 'y', 9],
    ]);
  });

  it.each([
    ['@@ with trailing spaces is a bare header', '@@   ', []],
    ['@@text is the anchor text', '@@def f():', ['def f():']],
    ['@@ text is the anchor text', '@@ def f():', ['def f():']],
    ['anchor text is trimmed', '@@    class A:   ', ['class A:']],
  ])('%s', (_name, header, anchors) => {
    const chunk = onlyChunk(update(header, '-x'));
    expect(chunk.anchors.map((a) => a.text)).toStrictEqual(anchors);
    expect(chunk.anchors.every((a) => a.line === 3)).toBe(true);
    expect(chunk.hint).toBeUndefined();
  });

  it('the first chunk of an Update may omit `@@` (its line is its first line)', () => {
    const u = onlyUpdate(update('', ' ctx', '-x', '+y', '@@ next', '-z'));
    expect(u.chunks.map((c) => [c.line, c.anchors.map((a) => a.text), c.lines.length])).toStrictEqual([
      [4, [], 3],
      [7, ['next'], 1],
    ]);
  });

  it('where an @@-less first chunk could begin, a space-padded file header is still a header', () => {
    const ops = parseOk(
      patch(begin, '*** Update File: a', '*** Move to: b', '', ' *** Delete File: c', end),
    ).operations;
    expect(ops.map((o) => [o.kind, o.path, o.line])).toStrictEqual([
      ['update', 'a', 2],
      ['delete', 'c', 5],
    ]);
    const e = parseError(patch(begin, '*** Update File: a', '  *** Add File: c', '+x', end));
    expect([e.line, e.expected]).toStrictEqual([3, expect.stringMatching(/Move to/)]);
  });

  it('a bare empty line inside a chunk is an empty context line; so is a whitespace-only one', () => {
    const chunk = onlyChunk(update('@@', ' a', '', '\t', '-b'));
    expect(chunk.lines.map((l) => [l.kind, l.text, l.line])).toStrictEqual([
      ['context', 'a', 4],
      ['context', '', 5],
      ['context', '', 6],
      ['remove', 'b', 7],
    ]);
  });

  it('blank lines at the end of the last chunk are empty context lines (the locator retries without them)', () => {
    const chunk = onlyChunk(update('@@', '-a', '', ''));
    expect(chunk.lines.map((l) => l.text)).toStrictEqual(['a', '', '']);
  });

  it('several `@@ anchor` lines in a row are stacked anchors of one chunk', () => {
    const chunk = onlyChunk(update('@@ class A:', '@@     def f(self):', '@@', '-  pass'));
    expect(chunk.anchors).toStrictEqual([
      { text: 'class A:', line: 3 },
      { text: 'def f(self):', line: 4 },
    ]);
    expect(chunk.line).toBe(3);
  });

  it.each([
    ['@@ -12,3 +12,4 @@ text', { oldStart: 12, oldLines: 3, newStart: 12, newLines: 4 }, ['text']],
    ['@@ -12 +12 @@', { oldStart: 12, newStart: 12 }, []],
    ['@@ -1,0 +1 @@', { oldStart: 1, oldLines: 0, newStart: 1 }, []],
    ['@@ -7,2 +9,3 @@   def g():  ', { oldStart: 7, oldLines: 2, newStart: 9, newLines: 3 }, ['def g():']],
    ['@@-5,1 +5,1@@x', { oldStart: 5, oldLines: 1, newStart: 5, newLines: 1 }, ['x']],
  ])('a unified-style header %j is a line hint plus the anchor', (header, hint, anchors) => {
    const chunk = onlyChunk(update(header, '-x'));
    expect(chunk.hint).toStrictEqual(hint);
    expect(chunk.anchors.map((a) => a.text)).toStrictEqual(anchors);
  });

  it.each([
    ['@@ -12 @@', '-12 @@'],
    ['@@ -a,b +c,d @@', '-a,b +c,d @@'],
    ['@@ -1 +2', '-1 +2'],
  ])('%j is not a line hint: the whole text is the anchor', (header, anchor) => {
    const chunk = onlyChunk(update(header, '-x'));
    expect(chunk.hint).toBeUndefined();
    expect(chunk.anchors.map((a) => a.text)).toStrictEqual([anchor]);
  });

  it('an Update with `*** Move to:` and no chunk is a pure rename', () => {
    expect(
      onlyOp(patch(begin, '*** Update File: old.txt', '*** Move to:  new dir/new.txt ', end)),
    ).toStrictEqual({
      kind: 'update',
      path: 'old.txt',
      movePath: 'new dir/new.txt',
      chunks: [],
      line: 2,
    });
  });

  it('an Update with a Move and chunks, blank lines between them', () => {
    const u = onlyUpdate(patch(begin, '*** Update File: a', '*** Move to: b', '', '@@', '-x', end));
    expect([u.movePath, u.chunks.length, u.chunks[0]!.line]).toStrictEqual(['b', 1, 5]);
  });

  it('a chunk can follow `*** End of File` with blank lines between', () => {
    const u = onlyUpdate(update('@@ a', '-x', '*** End of File', '', '@@ b', '-y'));
    expect(u.chunks.map((c) => [c.anchors[0]!.text, c.endOfFile])).toStrictEqual([
      ['a', true],
      ['b', false],
    ]);
  });
});

describe('parsePatch: wrappers, counted in the input as given', () => {
  const body = [begin, '*** Update File: f', '@@', '-a', '+b', end];
  /** Line of the `-a` line in a text that has `before` lines ahead of the body. */
  const removedLineIn = (text: string) => onlyChunk(text).lines[0]!.line;

  it.each([
    ['nothing', [], []],
    ['surrounding blank lines', ['', '   ', ''], ['', '  ']],
    ['<<EOF heredoc', ['<<EOF'], ['EOF']],
    ["<<'EOF' heredoc", ["<<'EOF'"], ['EOF']],
    ['<<"EOF" heredoc', ['<<"EOF"'], ['EOF']],
    ["cat <<'EOF'", ["cat <<'EOF'"], ['EOF']],
    ["apply_patch <<'EOF'", ["apply_patch <<'EOF'"], ['EOF']],
    ['apply_patch << "PATCH" (any delimiter)', ['apply_patch << "PATCH"'], ['PATCH']],
    ['a code fence', ['```'], ['```']],
    ['a code fence with an info string', ['```diff'], ['```']],
    ['a tilde fence', ['~~~patch'], ['~~~']],
    [
      'a fence around a heredoc, blank lines around both',
      ['', '```bash', "apply_patch <<'EOF'", ''],
      ['', 'EOF', '```', ''],
    ],
  ])('%s', (_name, before, after) => {
    const text = patch(...before, ...body, ...after);
    expect(removedLineIn(text)).toBe(before.length + 4);
  });

  it('CRLF line endings: same script, no \\r in any text', () => {
    const lf = parseOk(patch(...body));
    expect(parseOk(patch(...body).replaceAll('\n', '\r\n'))).toStrictEqual(lf);
    expect(parseOk(`${body.join('\r\n')}`)).toStrictEqual(lf);
  });

  it('a leading BOM is dropped', () => {
    expect(parseOk(`\ufeff${patch(...body)}`)).toStrictEqual(parseOk(patch(...body)));
  });

  it('a heredoc without its closing delimiter is not a wrapper', () => {
    const e = parseError(patch("cat <<'EOF'", ...body));
    expect([e.code, e.line, e.expected]).toStrictEqual(['PARSE_ERROR', 1, "'*** Begin Patch'"]);
  });
});

describe('parsePatch: errors name the line of the input as given and what was expected there', () => {
  it.each([
    [
      'an unknown header (013)',
      patch(begin, '*** Frobnicate File: foo', end),
      2,
      /a file header .* or '\*\*\* End Patch'/,
    ],
    [
      'an Update with neither Move nor chunk (008)',
      patch(begin, '*** Update File: foo.txt', end),
      3,
      /'\*\*\* Move to: <path>', a chunk header .* or a chunk line/,
    ],
    [
      'a line in Add File that does not start with +',
      patch(begin, '*** Add File: a', '+x', 'y', end),
      4,
      /a '\+' line of the new file/,
    ],
    [
      'a blank line in Add File',
      patch(begin, '*** Add File: a', '+x', '', end),
      4,
      /an empty line is written '\+'/,
    ],
    [
      'text after *** End Patch',
      patch(begin, '*** Delete File: a', end, 'trailing words'),
      4,
      /^nothing after '\*\*\* End Patch'$/,
    ],
    [
      'a second patch after *** End Patch',
      patch(begin, '*** Delete File: a', end, begin, '*** Delete File: b', end),
      4,
      /nothing after/,
    ],
    [
      'no *** Begin Patch before prose',
      patch('Here it is', '*** Delete File: a', end),
      1,
      /^'\*\*\* Begin Patch'$/,
    ],
    ['no *** End Patch (end of input)', patch(begin, '*** Delete File: a'), 3, /'\*\*\* End Patch'/],
    ['an empty path', patch(begin, '*** Add File:   ', '+x', end), 2, /^a path after the header$/],
    [
      'an empty Move path',
      patch(begin, '*** Update File: a', '*** Move to:', end),
      3,
      /^a path after the header$/,
    ],
    ['@@ with no chunk line', patch(begin, '*** Update File: a', '@@ anchor', end), 4, /a chunk line/],
    [
      '*** End of File with no chunk line',
      patch(begin, '*** Update File: a', '@@', '*** End of File', end),
      4,
      /a chunk line/,
    ],
    [
      'a chunk line after *** End of File (needs @@)',
      patch(begin, '*** Update File: a', '@@', '-x', '*** End of File', '-y', end),
      6,
      /a chunk header/,
    ],
    ['@@ after a Delete', patch(begin, '*** Delete File: a', '@@', '-x', end), 3, /a file header/],
    [
      '*** End of File in an Add',
      patch(begin, '*** Add File: a', '+x', '*** End of File', end),
      4,
      /'\+' line/,
    ],
    [
      'a line hint on a stacked @@ line',
      patch(begin, '*** Update File: a', '@@ f', '@@ -1 +1 @@', '-x', end),
      4,
      /without a line hint/,
    ],
    [
      '*** Begin Patch inside a chunk',
      patch(begin, '*** Update File: a', '@@', ' x', ' *** Begin Patch', end),
      5,
      /a chunk line/,
    ],
    [
      'a chunk line without a prefix',
      patch(begin, '*** Update File: a', '@@', ' x', 'y', end),
      5,
      /a chunk line \(' ' context, '-' removed or '\+' added\)/,
    ],
    [
      '*** Move to: not right after Update',
      patch(begin, '*** Update File: a', '@@', '-x', '*** Move to: b', end),
      5,
      /a file header/,
    ],
    ['a misspelt marker', patch(begin, '*** Delete File: a', '*** End Patchh'), 3, /'\*\*\* End Patch'/],
  ])('%s', (_name, text, line, expected) => {
    const e = parseError(text);
    expect(e.code).toBe('PARSE_ERROR');
    expect(e.line).toBe(line);
    expect(e.expected).toMatch(expected);
    expect(e.message).toBe(`line ${line}: expected ${e.expected}; found ${e.message.split('; found ')[1]}`);
  });

  it('the message quotes the line found there, or says the patch ended', () => {
    expect(parseError(patch(begin, '*** Frobnicate File: foo', end)).message).toMatch(
      /found "\*\*\* Frobnicate File: foo"$/,
    );
    expect(parseError(patch(begin, '*** Add File: a', '', end)).message).toMatch(/found an empty line$/);
    expect(parseError(patch(begin, '*** Delete File: a')).message).toMatch(/found the end of the patch$/);
  });

  it('counts wrapper lines: an error in a fenced heredoc names its line in the input as given', () => {
    const e = parseError(patch('```', "cat <<'EOF'", begin, '*** Frobnicate File: foo', end, 'EOF', '```'));
    expect(e.line).toBe(4);
  });

  it.each([
    ['Begin then End (005)', patch(begin, end), 2],
    ['Begin, blank lines, End', patch(begin, '', ' ', end), 4],
    ['an empty text', '', 1],
    ['whitespace only', ' \n\t\n', 1],
    ['an empty fence', patch('```', '```'), 1],
  ])('%s is EMPTY_PATCH', (_name, text, line) => {
    const e = parseError(text);
    expect([e.code, e.line]).toStrictEqual(['EMPTY_PATCH', line]);
    expect(e.message).toMatch(new RegExp(`^line ${line}: `));
  });
});

import type { EditScript } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { parseSearchReplace } from './parse-search-replace.js';

const text = (...lines: string[]) => `${lines.join('\n')}\n`;

function parseOk(input: string): EditScript {
  const r = parseSearchReplace(input);
  if (!r.ok) throw new Error(`expected a script, got ${JSON.stringify(r.errors)}`);
  return r.value;
}

function blocks(input: string) {
  return parseOk(input).operations.map((op) =>
    op.kind === 'replace' ? [op.path, op.search, op.replace, op.line] : op,
  );
}

describe('parseSearchReplace: Aider and Cline blocks', () => {
  it('reads a block with the path on the line before, outside a fence', () => {
    expect(
      blocks(
        text(
          'Here is the fix:',
          '',
          'src/app.py',
          '```python',
          '<<<<<<< SEARCH',
          'a = 1',
          '=======',
          'a = 2',
          '>>>>>>> REPLACE',
          '```',
        ),
      ),
    ).toStrictEqual([['src/app.py', 'a = 1\n', 'a = 2\n', 3]]);
  });

  it('reads a block with the path inside the fence', () => {
    expect(
      blocks(
        text('```python', 'src/app.py', '<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE', '```'),
      ),
    ).toStrictEqual([['src/app.py', 'a\n', 'b\n', 2]]);
  });

  it("reads Cline's ------- SEARCH / +++++++ REPLACE variant", () => {
    expect(blocks(text('x.ts', '------- SEARCH', 'old', '=======', 'new', '+++++++ REPLACE'))).toStrictEqual([
      ['x.ts', 'old\n', 'new\n', 1],
    ]);
  });

  it('reads several blocks per file and several files; a block without a path line keeps the previous one', () => {
    expect(
      blocks(
        text(
          'a.txt',
          '<<<<<<< SEARCH',
          '1',
          '=======',
          '2',
          '>>>>>>> REPLACE',
          '<<<<<<< SEARCH',
          '3',
          '=======',
          '4',
          '>>>>>>> REPLACE',
          '',
          '**b.txt**',
          '```',
          '<<<<<<< SEARCH',
          '5',
          '=======',
          '>>>>>>> REPLACE',
          '```',
        ),
      ),
    ).toStrictEqual([
      ['a.txt', '1\n', '2\n', 1],
      ['a.txt', '3\n', '4\n', 7],
      ['b.txt', '5\n', '', 13],
    ]);
  });

  it('an empty SEARCH is an empty search text (create or append)', () => {
    expect(blocks(text('new.txt', '<<<<<<< SEARCH', '=======', 'hello', '>>>>>>> REPLACE'))).toStrictEqual([
      ['new.txt', '', 'hello\n', 1],
    ]);
  });

  it('keeps blank lines and indentation inside blocks, and CRLF input reads the same', () => {
    const lines = ['f', '<<<<<<< SEARCH', '  a', '', '  b', '=======', '  c', '>>>>>>> REPLACE'];
    expect(blocks(text(...lines))).toStrictEqual([['f', '  a\n\n  b\n', '  c\n', 1]]);
    expect(blocks(lines.join('\r\n'))).toStrictEqual([['f', '  a\n\n  b\n', '  c\n', 1]]);
  });

  it.each([
    ['no divider', text('f', '<<<<<<< SEARCH', 'a', '>>>>>>> REPLACE'), 4, /=======/],
    [
      'no REPLACE line before the next block',
      text(
        'f',
        '<<<<<<< SEARCH',
        'a',
        '=======',
        'b',
        '<<<<<<< SEARCH',
        'c',
        '=======',
        'd',
        '>>>>>>> REPLACE',
      ),
      6,
      /REPLACE/,
    ],
    [
      'an :end_line: before the :start_line:',
      text(
        'f',
        '<<<<<<< SEARCH',
        ':start_line:9',
        ':end_line:3',
        '-------',
        'a',
        '=======',
        'b',
        '>>>>>>> REPLACE',
      ),
      1,
      /end_line/,
    ],
    ['a second SEARCH before the divider', text('f', '<<<<<<< SEARCH', 'a', '<<<<<<< SEARCH'), 4, /=======/],
    ['no path at all', text('<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE'), 1, /path/],
  ])('refuses %s with a PARSE_ERROR naming the line', (_what, input, line, message) => {
    const r = parseSearchReplace(input);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toMatchObject({ code: 'PARSE_ERROR', line });
    expect(r.errors[0]!.message).toMatch(message);
  });

  it('a text without any block is EMPTY_PATCH', () => {
    const r = parseSearchReplace('just prose\n');
    expect(r.ok || r.errors[0]!.code).toBe('EMPTY_PATCH');
  });
});

import type { ReplaceText } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { parseSearchReplace } from './parse-search-replace.js';

const text = (...lines: string[]) => `${lines.join('\n')}\n`;

function ops(input: string): ReplaceText[] {
  const r = parseSearchReplace(input);
  if (!r.ok) throw new Error(`expected a script, got ${JSON.stringify(r.errors)}`);
  return r.value.operations as ReplaceText[];
}

describe("SEARCH/REPLACE variants: Roo Code's headers and line numbers", () => {
  it('reads :start_line: / :end_line: and the ------- line as a hint, not as SEARCH text', () => {
    const [op] = ops(
      text(
        'src/a.ts',
        '<<<<<<< SEARCH',
        ':start_line:12',
        ':end_line:13',
        '-------',
        'x = 1',
        'y = 2',
        '=======',
        'x = 3',
        '>>>>>>> REPLACE',
      ),
    );
    expect(op).toMatchObject({ search: 'x = 1\ny = 2\n', replace: 'x = 3\n', startLine: 12, line: 1 });
  });

  it('reads the ------- line without a hint too (Roo allows it)', () => {
    const [op] = ops(text('a', '<<<<<<< SEARCH', '-------', 'x', '=======', 'y', '>>>>>>> REPLACE'));
    expect(op).toMatchObject({ search: 'x\n', replace: 'y\n' });
    expect(op!.startLine).toBeUndefined();
  });

  it('strips N | prefixes when every SEARCH line carries consecutive ones, and REPLACE lines likewise', () => {
    const [op] = ops(
      text(
        'a.py',
        '<<<<<<< SEARCH',
        '7 | def f():',
        '8 |     return 1',
        '=======',
        '7 | def f():',
        '8 |     return 2',
        '>>>>>>> REPLACE',
      ),
    );
    expect(op).toMatchObject({
      search: 'def f():\n    return 1\n',
      replace: 'def f():\n    return 2\n',
      startLine: 7,
    });
  });

  it('keeps prefixes that are code: not on every line, or not consecutive, or a || operator', () => {
    const some = ops(
      text('a.c', '<<<<<<< SEARCH', '0 | FLAG_A,', 'FLAG_B', '=======', 'x', '>>>>>>> REPLACE'),
    );
    expect(some[0]!.search).toBe('0 | FLAG_A,\nFLAG_B\n');
    const jumps = ops(text('a.c', '<<<<<<< SEARCH', '1 | A,', '4 | B,', '=======', 'x', '>>>>>>> REPLACE'));
    expect(jumps[0]!.search).toBe('1 | A,\n4 | B,\n');
    const or = ops(text('a.c', '<<<<<<< SEARCH', '1 || a', '=======', 'x', '>>>>>>> REPLACE'));
    expect(or[0]!.search).toBe('1 || a\n');
  });

  it('leaves REPLACE numbered lines alone when SEARCH had none', () => {
    const [op] = ops(text('a', '<<<<<<< SEARCH', 'x', '=======', '1 | y', '>>>>>>> REPLACE'));
    expect(op!.replace).toBe('1 | y\n');
  });

  it('un-escapes a marker written as content with a backslash', () => {
    const [op] = ops(
      text('notes.md', '<<<<<<< SEARCH', '\\=======', '=======', '\\>>>>>>> REPLACE', '>>>>>>> REPLACE'),
    );
    expect(op).toMatchObject({ search: '=======\n', replace: '>>>>>>> REPLACE\n' });
  });
});

describe('SEARCH/REPLACE variants: markers, empty SEARCH, streamed last block', () => {
  it('reads markers and dividers of 5 to 9 characters', () => {
    const [op] = ops(text('a', '<<<<< SEARCH', 'x', '=========', 'y', '>>>>>>>>> REPLACE'));
    expect(op).toMatchObject({ search: 'x\n', replace: 'y\n' });
  });

  it('a SEARCH of blank lines only is empty (create or append), as Aider reads it', () => {
    const [op] = ops(text('new.txt', '<<<<<<< SEARCH', '', '  ', '=======', 'hello', '>>>>>>> REPLACE'));
    expect(op).toMatchObject({ path: 'new.txt', search: '', replace: 'hello\n' });
  });

  it("accepts Cline's last block without its final marker once the input has ended, dropping the closing fence", () => {
    const input = text(
      'Done:',
      '',
      'a.js',
      '```js',
      '------- SEARCH',
      'let x = 1;',
      '=======',
      'let x = 2;',
      '```',
    );
    expect(ops(input)).toMatchObject([{ path: 'a.js', search: 'let x = 1;\n', replace: 'let x = 2;\n' }]);
  });

  it('an unclosed last block with nothing after its divider is a cut-off reply, not a deletion', () => {
    const r = parseSearchReplace(text('a.js', '<<<<<<< SEARCH', 'keep me', '======='));
    expect(!r.ok && r.errors[0]).toMatchObject({ code: 'PARSE_ERROR', line: 1 });
  });

  it('a model reply: prose between blocks, several files, a path carried over', () => {
    const reply = text(
      'I will rename the helper and update its caller.',
      '',
      'lib/util.py',
      '```python',
      '<<<<<<< SEARCH',
      'def helper():',
      '=======',
      'def assist():',
      '>>>>>>> REPLACE',
      '```',
      '',
      'And the second place in the same file:',
      '',
      '```python',
      '<<<<<<< SEARCH',
      '    return helper()',
      '=======',
      '    return assist()',
      '>>>>>>> REPLACE',
      '```',
      '',
      '**app.py**',
      '```python',
      '<<<<<<< SEARCH',
      'from lib.util import helper',
      '=======',
      'from lib.util import assist',
      '>>>>>>> REPLACE',
      '```',
      'That is all.',
    );
    expect(ops(reply).map((o) => [o.path, o.search, o.line])).toStrictEqual([
      ['lib/util.py', 'def helper():\n', 3],
      ['lib/util.py', '    return helper()\n', 12],
      ['app.py', 'from lib.util import helper\n', 22],
    ]);
  });
});

import { type AddFile, type EditScript, PatchsmithError } from '@patchsmith/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWholeFile } from './parse-whole-file.js';
import { printWholeFile } from './print-whole-file.js';
import { wholeFileScript } from './test-support/format-scripts.js';

const text = (...lines: string[]) => `${lines.join('\n')}\n`;

function files(input: string): [string, string, number][] {
  const r = parseWholeFile(input);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return (r.value.operations as AddFile[]).map((op) => [op.path, op.content!, op.line]);
}

function refusal(input: string): { code: string; line?: number; message: string } {
  const r = parseWholeFile(input);
  if (r.ok) throw new Error('expected a refusal');
  return r.errors[0]!;
}

describe('parseWholeFile: names as Aider reads them', () => {
  it.each([
    ['bare', 'src/app.py'],
    ['bold', '**src/app.py**'],
    ['backticked', '`src/app.py`'],
    ['with a colon', 'src/app.py:'],
    ['a heading', '### src/app.py'],
    ['a # comment', '# src/app.py'],
    ['said as File:', 'File: src/app.py'],
  ])('the line before the fence, %s', (_how, pathLine) => {
    expect(files(text(pathLine, '```python', 'print(1)', '```'))).toStrictEqual([
      ['src/app.py', 'print(1)\n', 2],
    ]);
  });

  it("the fence's info string, and a bare name on the block's first line", () => {
    expect(files(text('```python src/x.py', 'x = 1', '```'))).toStrictEqual([['src/x.py', 'x = 1\n', 1]]);
    expect(files(text('```', 'src/y.py', 'y = 1', '```'))).toStrictEqual([['src/y.py', 'y = 1\n', 1]]);
  });

  it('a comment naming the file on the first line stays content: it is code', () => {
    expect(files(text('a.ts', '```ts', '// a.ts', 'export {};', '```'))).toStrictEqual([
      ['a.ts', '// a.ts\nexport {};\n', 2],
    ]);
  });

  it('the one backticked name the prose just mentioned, when nothing else names the block', () => {
    expect(
      files(text('Here is the new `lib/util.py`, rewritten:', '', '```python', 'pass', '```')),
    ).toStrictEqual([['lib/util.py', 'pass\n', 3]]);
  });

  it('four backticks around three-backtick content; <source> and <code> tags', () => {
    expect(
      files(text('README.md', '````markdown', '# Title', '```sh', 'npm i', '```', '````')),
    ).toStrictEqual([['README.md', '# Title\n```sh\nnpm i\n```\n', 2]]);
    expect(
      files(text('a.txt', '<source>', 'x', '</source>', 'b.txt', '<code>', 'y', '</code>')),
    ).toStrictEqual([
      ['a.txt', 'x\n', 2],
      ['b.txt', 'y\n', 6],
    ]);
  });

  it('a model reply: prose between blocks, several files, an emptied file, CRLF', () => {
    const reply = text(
      'I made the changes below.',
      '',
      'src/main.py',
      '```python',
      'def main():',
      '    print("hi")',
      '',
      '```',
      '',
      'Then the test, updated to match:',
      '',
      'tests/test_main.py',
      '```python',
      'from src.main import main',
      '```',
      'And `src/empty.py` is now empty:',
      '```',
      '```',
      'Let me know if you want more.',
    ).replace(/\n/g, '\r\n');
    expect(files(reply)).toStrictEqual([
      ['src/main.py', 'def main():\n    print("hi")\n\n', 4],
      ['tests/test_main.py', 'from src.main import main\n', 13],
      ['src/empty.py', '', 17],
    ]);
  });
});

describe('parseWholeFile: refusals', () => {
  it('a block without any name is a PARSE_ERROR naming its line', () => {
    expect(refusal(text('Run this:', '```', 'npm test', '```'))).toMatchObject({
      code: 'PARSE_ERROR',
      line: 2,
    });
  });

  it('names that disagree are ambiguous', () => {
    const e = refusal(text('a.py', '```python b.py', 'x', '```'));
    expect(e).toMatchObject({ code: 'PARSE_ERROR', line: 2 });
    expect(e.message).toMatch(/ambiguous.*"a\.py".*"b\.py"/);
  });

  it('a word before the fence that is no path is prose ("Run:"), unless marked as a name', () => {
    expect(refusal(text('Run:', '```', 'npm test', '```')).code).toBe('PARSE_ERROR');
    expect(refusal(text('Output', '```', 'ok', '```')).code).toBe('PARSE_ERROR');
    expect(files(text('`VERSION`', '```', '1.0', '```'))).toStrictEqual([['VERSION', '1.0\n', 2]]);
    expect(files(text('Makefile', '```', 'all:', '```'))).toStrictEqual([['Makefile', 'all:\n', 2]]);
  });

  it('"..." is no name; two names in one sentence are none either', () => {
    expect(refusal(text('...', '```', 'x', '```')).code).toBe('PARSE_ERROR');
    expect(refusal(text('Compare `a.py` and `b.py`:', '```', 'x', '```')).code).toBe('PARSE_ERROR');
  });

  it('a reply cut off inside a block writes nothing', () => {
    const e = refusal(text('done.py', '```python', 'def f():', '    return'));
    expect(e).toMatchObject({ code: 'PARSE_ERROR', line: 2 });
    expect(e.message).toMatch(/no closing fence/);
  });

  it('text without a block is EMPTY_PATCH', () => {
    expect(refusal('just words\n').code).toBe('EMPTY_PATCH');
  });
});

describe('printWholeFile / parseWholeFile', () => {
  it('parseWholeFile(printWholeFile(s)) is s, each operation pointing at its fence', () => {
    fc.assert(
      fc.property(wholeFileScript, (script) => {
        const printed = printWholeFile(script);
        const parsed = parseWholeFile(printed);
        if (!parsed.ok) throw new Error(`${parsed.errors[0]?.message}\n${printed}`);
        const strip = (s: EditScript) => s.operations.map((op) => ({ ...op, line: 0 }));
        expect(strip(parsed.value)).toStrictEqual(strip(script));
        const lines = printed.split('\n');
        for (const op of parsed.value.operations)
          expect(lines[op.line - 2]!.replace(/^`(.*)`$/, '$1')).toBe(op.path);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses what a block cannot say', () => {
    const add = (op: Partial<AddFile>): EditScript => ({
      format: 'whole-file',
      operations: [{ kind: 'add', path: 'a', lines: ['x'], content: 'x\n', line: 1, ...op }],
    });
    expect(() => printWholeFile(add({ content: 'no newline' }))).toThrow(PatchsmithError);
    expect(() => printWholeFile(add({ path: '**a**' }))).toThrow(/path line/);
    expect(() => printWholeFile(add({ mode: 0o755 }))).toThrow(PatchsmithError);
    expect(() =>
      printWholeFile({ format: 'codex', operations: [{ kind: 'delete', path: 'a', line: 1 }] }),
    ).toThrow(/no whole-file form/);
  });
});

/** Every input format through the whole pipeline (`runEdit`), on real files in a temp folder. */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-formats-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const read = (path: string) => readFile(join(root, path), 'utf8');

describe('runEdit with each format', () => {
  it('applies a unified diff (auto-detected), with a drifted hunk and a mode change', async () => {
    await writeFile(join(root, 'a.txt'), 'new top\none\ntwo\nthree\n');
    const diff = [
      'diff --git a/a.txt b/a.txt',
      'old mode 100644',
      'new mode 100755',
      '--- a/a.txt',
      '+++ b/a.txt',
      '@@ -1,3 +1,3 @@',
      ' one',
      '-two',
      '+TWO',
      ' three',
      '',
    ].join('\n');
    const report = await runEdit({ kind: 'patch', text: diff }, { root, snapshot: false });
    expect(report.errors).toStrictEqual([]);
    expect(await read('a.txt')).toBe('new top\none\nTWO\nthree\n');
    expect((await stat(join(root, 'a.txt'))).mode & 0o777).toBe(0o755);
  });

  it("breaks a tie between identical places with the hunk's line numbers, not its heading", async () => {
    const block = 'if (x) {\n  go();\n}\n';
    await writeFile(join(root, 'b.ts'), `function a() {\n${block}}\nfunction b() {\n${block}}\n`);
    const diff = [
      '--- a/b.ts',
      '+++ b/b.ts',
      '@@ -7,3 +7,3 @@ function a() {',
      ' if (x) {',
      '-  go();',
      '+  stop();',
      ' }',
      '',
    ].join('\n');
    const report = await runEdit({ kind: 'patch', text: diff }, { root, snapshot: false });
    expect(report.errors).toStrictEqual([]);
    expect(await read('b.ts')).toBe(`function a() {\n${block}}\nfunction b() {\nif (x) {\n  stop();\n}\n}\n`);
  });

  it('applies SEARCH/REPLACE blocks, one creating a file', async () => {
    await writeFile(join(root, 'app.py'), 'def f():\n    return 1\n');
    const text = [
      'app.py',
      '```python',
      '<<<<<<< SEARCH',
      '    return 1',
      '=======',
      '    return 2',
      '>>>>>>> REPLACE',
      '```',
      '',
      'new.py',
      '<<<<<<< SEARCH',
      '=======',
      'print("hi")',
      '>>>>>>> REPLACE',
    ].join('\n');
    const report = await runEdit(
      { kind: 'patch', text, format: 'search-replace' },
      { root, snapshot: false },
    );
    expect(report.errors).toStrictEqual([]);
    expect(await read('app.py')).toBe('def f():\n    return 2\n');
    expect(await read('new.py')).toBe('print("hi")\n');
  });

  it('applies str_replace edits in order against the file as each left it', async () => {
    await writeFile(join(root, 'x.ts'), 'const a = 1;\r\nconst b = 2;\r\n');
    const report = await runEdit(
      {
        kind: 'edits',
        edits: [
          { command: 'str_replace', path: 'x.ts', old_str: 'a = 1', new_str: "a = '$&'" },
          { command: 'insert', path: 'x.ts', insert_line: 2, new_str: 'const c = 3;\n' },
          { command: 'create', path: 'y.txt', file_text: 'exact' },
        ],
      },
      { root, snapshot: false },
    );
    expect(report.errors).toStrictEqual([]);
    expect(await read('x.ts')).toBe("const a = '$&';\r\nconst b = 2;\r\nconst c = 3;\r\n");
    expect(await read('y.txt')).toBe('exact');
  });

  it('rejects an ambiguous str_replace with the candidate lines and writes nothing', async () => {
    await writeFile(join(root, 'x.txt'), 'x\ny\nx\n');
    const report = await runEdit(
      { kind: 'edits', edits: [{ command: 'str_replace', path: 'x.txt', old_str: 'x', new_str: 'z' }] },
      { root, snapshot: false },
    );
    expect(report.ok).toBe(false);
    expect(report.errors).toMatchObject([{ code: 'AMBIGUOUS', candidates: [1, 3] }]);
    expect(await read('x.txt')).toBe('x\ny\nx\n');
  });

  it('rejects old_str == new_str as INVALID_EDIT', async () => {
    const report = await runEdit(
      { kind: 'edits', edits: [{ command: 'str_replace', path: 'x.txt', old_str: 'x', new_str: 'x' }] },
      { root, snapshot: false },
    );
    expect(report.errors).toMatchObject([{ code: 'INVALID_EDIT' }]);
  });

  it('refuses a binary diff with a PARSE_ERROR', async () => {
    const diff = 'diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n';
    const report = await runEdit({ kind: 'patch', text: diff, format: 'unified' }, { root, snapshot: false });
    expect(report.errors).toMatchObject([{ code: 'PARSE_ERROR', line: 3 }]);
  });
});

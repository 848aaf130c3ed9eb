/** The peers' edit forms (issue 15) through the whole pipeline (`runEdit`), on real files in a temp folder. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';
import { hashTree } from './test-support/hash-tree.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-peer-formats-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const read = (path: string) => readFile(join(root, path), 'utf8');
const text = (...lines: string[]) => `${lines.join('\n')}\n`;
const patch = (t: string) => runEdit({ kind: 'patch', text: t }, { root, snapshot: false });

describe('runEdit: whole-file edits', () => {
  it('writes each named block (auto-detected), creating and replacing files, prose between them', async () => {
    await writeFile(join(root, 'main.py'), 'print("old")\n');
    const reply = text(
      'Here are the updated files.',
      '',
      'main.py',
      '```python',
      'print("new")',
      '```',
      '',
      'And a new helper:',
      '',
      '```python lib/helper.py',
      'def help():',
      '    pass',
      '```',
    );
    const report = await patch(reply);
    expect(report.errors).toStrictEqual([]);
    expect(await read('main.py')).toBe('print("new")\n');
    expect(await read('lib/helper.py')).toBe('def help():\n    pass\n');
  });

  it('a reply cut off inside a block leaves the tree byte-identical', async () => {
    await writeFile(join(root, 'main.py'), 'keep\n');
    const before = await hashTree(root);
    const report = await patch(text('main.py', '```python', 'def f():'));
    expect(report.ok).toBe(false);
    expect(report.errors[0]).toMatchObject({ code: 'PARSE_ERROR', line: 2 });
    expect(await hashTree(root)).toStrictEqual(before);
  });

  it('a name outside the root is refused like any other path', async () => {
    const report = await patch(text('../escape.txt', '```', 'x', '```'));
    expect(report.errors[0]!.code).toBe('PATH_OUTSIDE_ROOT');
  });
});

describe('runEdit: SEARCH/REPLACE variants', () => {
  it("Roo's :start_line: breaks no rule and its N | prefixes are stripped", async () => {
    await writeFile(join(root, 'a.ts'), 'const a = 1;\nconst b = 2;\n');
    const report = await patch(
      text(
        'a.ts',
        '<<<<<<< SEARCH',
        ':start_line:2',
        '-------',
        '2 | const b = 2;',
        '=======',
        'const b = 3;',
        '>>>>>>> REPLACE',
      ),
    );
    expect(report.errors).toStrictEqual([]);
    expect(await read('a.ts')).toBe('const a = 1;\nconst b = 3;\n');
  });

  it("Cline's last block without its REPLACE line applies once the input has ended", async () => {
    await writeFile(join(root, 'a.js'), 'let x = 1;\n');
    const report = await patch(text('a.js', '------- SEARCH', 'let x = 1;', '=======', 'let x = 2;'));
    expect(report.errors).toStrictEqual([]);
    expect(await read('a.js')).toBe('let x = 2;\n');
  });
});

describe('runEdit: Codex variants', () => {
  it('cd DIR && apply_patch: paths are relative to DIR', async () => {
    await mkdir(join(root, 'pkg'));
    await writeFile(join(root, 'pkg/a.txt'), 'one\n');
    const report = await patch(
      text(
        "bash -lc \"cd pkg && apply_patch <<'EOF'",
        '*** Begin Patch',
        '*** Update File: a.txt',
        '@@',
        '-one',
        '+two',
        '*** End Patch',
        'EOF',
        '"',
      ),
    );
    expect(report.errors).toStrictEqual([]);
    expect(await read('pkg/a.txt')).toBe('two\n');
  });

  it('cd out of the root is refused and nothing is written', async () => {
    const before = await hashTree(root);
    const report = await patch(
      text(
        "cd .. && apply_patch <<'EOF'",
        '*** Begin Patch',
        '*** Add File: x',
        '+x',
        '*** End Patch',
        'EOF',
      ),
    );
    expect(report.errors[0]).toMatchObject({ code: 'PATH_OUTSIDE_ROOT', line: 1 });
    expect(await hashTree(root)).toStrictEqual(before);
  });

  it('an absolute cd elsewhere is refused by the path policy', async () => {
    const report = await patch(
      text("cd /etc && apply_patch <<'EOF'", '*** Update File: passwd', '@@', '-root', '+me', 'EOF'),
    );
    expect(report.errors[0]!.code).toBe('PATH_OUTSIDE_ROOT');
  });

  it('an Update/Add sequence without Begin/End Patch applies', async () => {
    await writeFile(join(root, 'a.txt'), 'one\n');
    const report = await patch(
      text('*** Update File: a.txt', '@@', '-one', '+two', '*** Add File: b.txt', '+b'),
    );
    expect(report.errors).toStrictEqual([]);
    expect([await read('a.txt'), await read('b.txt')]).toStrictEqual(['two\n', 'b\n']);
  });
});

describe('runEdit: str_replace aliases', () => {
  it("Claude Code's and OpenCode's field names apply", async () => {
    await writeFile(join(root, 'a.txt'), 'alpha beta\n');
    const edits = [
      { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' },
      { filePath: 'a.txt', oldString: 'beta', newString: 'BETA', replaceAll: true },
    ];
    // biome-ignore lint/suspicious/noExplicitAny: the aliases are what the SDK types leave out
    const report = await runEdit({ kind: 'edits', edits: edits as any }, { root, snapshot: false });
    expect(report.errors).toStrictEqual([]);
    expect(await read('a.txt')).toBe('ALPHA BETA\n');
  });

  it('an empty old_string creates a new file, and refuses to overwrite one', async () => {
    const create = [{ file_path: 'n.txt', old_string: '', new_string: 'hi\n' }];
    // biome-ignore lint/suspicious/noExplicitAny: the aliases are what the SDK types leave out
    const first = await runEdit({ kind: 'edits', edits: create as any }, { root, snapshot: false });
    expect(first.errors).toStrictEqual([]);
    expect(await read('n.txt')).toBe('hi\n');
    const again = [{ file_path: 'n.txt', old_string: '', new_string: 'gone\n' }];
    // biome-ignore lint/suspicious/noExplicitAny: the aliases are what the SDK types leave out
    const second = await runEdit({ kind: 'edits', edits: again as any }, { root, snapshot: false });
    expect(second.errors[0]).toMatchObject({ code: 'INVALID_EDIT', path: 'n.txt' });
    expect(await read('n.txt')).toBe('hi\n');
  });

  it('an unknown field is an error naming it', async () => {
    const edits = [
      { command: 'str_replace', path: 'a.txt', old_str: 'a', new_str: 'b', replace_every: true },
    ];
    // biome-ignore lint/suspicious/noExplicitAny: a mistake on purpose
    const report = await runEdit({ kind: 'edits', edits: edits as any }, { root, snapshot: false });
    expect(report.errors[0]!.message).toMatch(/"replace_every"/);
  });
});

describe('runEdit: unified diffs as git and GNU patch read them', () => {
  const hunk = ['@@ -1 +1 @@', '-a', '+b'];

  it('diff -r old new edits the file below the folders, or the new side as written when only it exists', async () => {
    await writeFile(join(root, 'x.txt'), 'a\n');
    const diff = text(
      'diff -r old/x.txt new/x.txt',
      '--- old/x.txt  2024-01-01 10:00:00 +0100',
      '+++ new/x.txt  2024-01-02 10:00:00 +0100',
      ...hunk,
    );
    expect((await patch(diff)).errors).toStrictEqual([]);
    expect(await read('x.txt')).toBe('b\n');
    await rm(join(root, 'x.txt'));
    await mkdir(join(root, 'new'));
    await writeFile(join(root, 'new/x.txt'), 'a\n');
    expect((await patch(diff)).errors).toStrictEqual([]);
    expect(await read('new/x.txt')).toBe('b\n');
  });

  it('a path with backslashes is a name, not an IO_ERROR', async () => {
    const report = await patch(text('--- /dev/null', '+++ b/a\\b.txt', '@@ -0,0 +1 @@', '+x'));
    expect(report.errors.map((e) => e.code)).not.toContain('IO_ERROR');
  });

  it('a file replaced by a folder within one patch applies (file-to-folder.test.ts has the rest)', async () => {
    await writeFile(join(root, 'thing'), 'a file\n');
    const diff = text(
      'diff --git a/thing b/thing',
      'deleted file mode 100644',
      '--- a/thing',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-a file',
      'diff --git a/thing/inside.txt b/thing/inside.txt',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/thing/inside.txt',
      '@@ -0,0 +1 @@',
      '+now a folder',
    );
    const report = await patch(diff);
    expect(report.errors).toStrictEqual([]);
    expect(await read('thing/inside.txt')).toBe('now a folder\n');
  });

  it('two hunks that share a context line apply', async () => {
    await writeFile(join(root, 's.txt'), 'a\nb\nc\nd\ne\n');
    const report = await patch(
      text(
        '--- a/s.txt',
        '+++ b/s.txt',
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
    expect(report.errors).toStrictEqual([]);
    expect(await read('s.txt')).toBe('a\nB\nc\nD\ne\n');
  });
});

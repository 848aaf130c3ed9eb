import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { viewFile } from './view-file.js';

let root: string;
let outside: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-view-'));
  outside = await mkdtemp(join(tmpdir(), 'patchsmith-outside-'));
  await mkdir(join(root, 'src/deep/deeper'), { recursive: true });
  await writeFile(join(root, 'src/a.ts'), 'const a = 1;\r\nconst b = 2;\r\n\r\nexport { a, b };\r\n');
  await writeFile(join(root, 'src/deep/deeper/c.ts'), 'x\n');
  await writeFile(join(root, 'README.md'), 'no final newline');
  await writeFile(join(root, '.hidden'), 'h');
  await mkdir(join(root, 'node_modules/pkg'), { recursive: true });
  await writeFile(join(outside, 'secret.txt'), 'secret\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('viewFile', () => {
  it('numbers every line like `cat -n`, line endings dropped', async () => {
    const result = await viewFile({ root, path: 'src/a.ts' });
    expect(result).toEqual({
      ok: true,
      kind: 'file',
      path: 'src/a.ts',
      text:
        "Here's the result of running `cat -n` on src/a.ts:\n" +
        '     1\tconst a = 1;\n     2\tconst b = 2;\n     3\t\n     4\texport { a, b };\n',
      // The version shown, for `readVersions` (sha256 of the file's bytes).
      hash: createHash('sha256')
        .update(await readFile(join(root, 'src/a.ts')))
        .digest('hex'),
    });
  });

  it('shows a range, and -1 reads to the end', async () => {
    const two = await viewFile({ root, path: 'src/a.ts', view_range: [2, 3] });
    expect(two.ok && two.text.split('\n').slice(1, -1)).toEqual(['     2\tconst b = 2;', '     3\t']);
    const tail = await viewFile({ root, path: 'src/a.ts', view_range: [4, -1] });
    expect(tail.ok && tail.text.split('\n').slice(1, -1)).toEqual(['     4\texport { a, b };']);
  });

  it.each([
    [[0, 2], 'first element `0`'],
    [[5, -1], 'first element `5`'],
    [[3, 2], 'second element `2`'],
    [[1, 9], 'second element `9`'],
    [[1], 'list of two integers'],
  ])('refuses the range %j', async (range, mention) => {
    const result = await viewFile({ root, path: 'src/a.ts', view_range: range });
    expect(result).toMatchObject({ ok: false, code: 'INVALID_EDIT' });
    expect(!result.ok && result.message).toContain(mention);
  });

  it('accepts an absolute path inside the root', async () => {
    const result = await viewFile({ root, path: join(root, 'README.md') });
    expect(result).toMatchObject({ ok: true, path: 'README.md' });
    expect(result.ok && result.text.endsWith('     1\tno final newline\n')).toBe(true);
  });

  it('lists a folder two levels deep, without hidden items and node_modules', async () => {
    const result = await viewFile({ root, path: '.' });
    expect(result.ok && result.text.split('\n')).toEqual([
      'Here are the files and directories up to 2 levels deep in ., excluding hidden items and node_modules:',
      'README.md',
      'src/',
      'src/a.ts',
      'src/deep/',
    ]);
    const sub = await viewFile({ root, path: 'src/' });
    expect(sub).toMatchObject({ ok: true, kind: 'directory', path: 'src' });
    expect(sub.ok && sub.text).toContain('deep/deeper/');
    expect(sub.ok && sub.text).not.toContain('c.ts');
  });

  it('caps a long listing and says how many entries it left out', async () => {
    const result = await viewFile({ root, path: 'src', maxEntries: 1 });
    expect(result.ok && result.text.split('\n').slice(1)).toEqual(['a.ts', '... and 2 more']);
  });

  it.each([
    ['../outside.txt', 'PATH_OUTSIDE_ROOT'],
    ['/etc/passwd', 'PATH_OUTSIDE_ROOT'],
    ['.git/config', 'PATH_INVALID'],
    ['missing.ts', 'FILE_NOT_FOUND'],
  ])('refuses %s with %s', async (path, code) => {
    expect(await viewFile({ root, path })).toMatchObject({ ok: false, code });
  });

  it('refuses a symlink that leads out of the root', async () => {
    await symlink(join(outside, 'secret.txt'), join(root, 'link.txt'));
    expect(await viewFile({ root, path: 'link.txt' })).toMatchObject({
      ok: false,
      code: 'PATH_OUTSIDE_ROOT',
    });
  });

  it('refuses a binary file', async () => {
    await writeFile(join(root, 'b.bin'), Buffer.from([0x89, 0x50, 0x00, 0xff]));
    expect(await viewFile({ root, path: 'b.bin' })).toMatchObject({ ok: false, code: 'BINARY_FILE' });
  });
});

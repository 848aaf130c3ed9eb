/** Through the built CLI: a notebook edited by cell, and the formatter run only with --format-code. */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';

/** nteract's intro notebook (nbformat 4.0), a real notebook with outputs. */
const NOTEBOOK = createRequire(import.meta.url).resolve('@nteract/examples/python/intro.ipynb');
const PRETTIER = dirname(
  createRequire(import.meta.url).resolve('prettier/package.json', {
    paths: [fileURLToPath(new URL('../../../packages/tool/', import.meta.url))],
  }),
);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-nb-format-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ps = (args: string[], input?: string) => runBin(PATCHSMITH_BIN, args, { cwd: dir, input });

describe('patchsmith apply on a notebook', () => {
  it('matches the cells, writes a one-line diff, and --check shows it without writing', async () => {
    await copyFile(NOTEBOOK, join(dir, 'nb.ipynb'));
    const patch = [
      '*** Begin Patch',
      '*** Update File: nb.ipynb',
      '@@ # %% cell 1 [markdown]',
      '-## The Notable Nteract Notebook',
      '+## Edited',
      '*** End Patch',
      '',
    ].join('\n');
    const checked = ps(['check', '--json', '-'], patch);
    expect(checked.status).toBe(0);
    expect(JSON.parse(checked.stdout).files[0]).toMatchObject({
      path: 'nb.ipynb',
      additions: 1,
      deletions: 1,
    });
    const real = await readFile(NOTEBOOK, 'utf8');
    expect(await readFile(join(dir, 'nb.ipynb'), 'utf8')).toBe(real);
    const applied = ps(['apply', '--no-snapshot', '-'], patch);
    expect(applied).toMatchObject({ status: 0, stdout: expect.stringContaining('[M] nb.ipynb (+1 -1)') });
    expect(await readFile(join(dir, 'nb.ipynb'), 'utf8')).toBe(
      real.replace('"## The Notable Nteract Notebook\\n"', '"## Edited\\n"'),
    );
  });
});

describe('patchsmith apply --format-code', () => {
  it("runs the project's prettier only when asked, and says so", async () => {
    await writeFile(join(dir, 'a.ts'), 'let a = 1\n');
    await writeFile(join(dir, '.prettierrc'), '{"semi": false}\n');
    await mkdir(join(dir, 'node_modules'));
    await symlink(PRETTIER, join(dir, 'node_modules', 'prettier'));
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.ts',
      '-let a = 1',
      "+let a = {b:'c'};",
      '*** End Patch',
      '',
    ].join('\n');
    const diff = ps(['diff', '--format-code', '-'], patch);
    expect(diff).toMatchObject({ status: 0, stdout: expect.stringContaining('+let a = { b: "c" }\n') });
    const applied = ps(['apply', '--format-code', '--no-snapshot', '-'], patch);
    expect(applied.status).toBe(0);
    expect(applied.stdout).toContain('formatted by prettier before writing');
    expect(await readFile(join(dir, 'a.ts'), 'utf8')).toBe('let a = { b: "c" }\n');
    await writeFile(join(dir, 'a.ts'), 'let a = 1\n');
    expect(ps(['apply', '--no-snapshot', '-'], patch).status).toBe(0);
    expect(await readFile(join(dir, 'a.ts'), 'utf8')).toBe("let a = {b:'c'};\n");
  });

  it('a failing format command is a note, not a failure (exit 0)', async () => {
    execFileSync('git', ['init', '-q'], { cwd: dir });
    await writeFile(join(dir, 'a.txt'), 'one\n');
    await writeFile(
      join(dir, '.patchsmith.json'),
      JSON.stringify({ format: { '*.txt': [process.execPath, '-e', 'process.exit(2)'] } }),
    );
    const patch = ['*** Begin Patch', '*** Update File: a.txt', '-one', '+two', '*** End Patch', ''].join(
      '\n',
    );
    const applied = ps(['apply', '--format-code', '--json', '-'], patch);
    expect(applied.status).toBe(0);
    expect(JSON.parse(applied.stdout).files[0].formatted).toMatchObject({
      ok: false,
      note: expect.stringContaining('exited with 2'),
    });
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('two\n');
  });
});

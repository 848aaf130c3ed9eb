/** Roo Code's `:start_line:` through the built `patchsmith apply`: the hint breaks ties (SPEC §2). */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-cli-start-line-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (...lines: string[]) => `${lines.join('\n')}\n`;
const block = (start: number) =>
  text(
    'Fixing the second loop:',
    '',
    'app.py',
    '```',
    '<<<<<<< SEARCH',
    `:start_line:${start}`,
    '-------',
    '    i += 1',
    '=======',
    '    i += 2',
    '>>>>>>> REPLACE',
    '```',
  );

it('the block lands on the occurrence nearest its :start_line:, or is AMBIGUOUS without a nearest one', async () => {
  const source = text('while a:', '    i += 1', 'while b:', '    i += 1');
  await writeFile(join(dir, 'app.py'), source);
  const tied = runBin(PATCHSMITH_BIN, ['apply', '--json', '--no-snapshot'], { cwd: dir, input: block(3) });
  expect(tied.status).toBe(1);
  expect(JSON.parse(tied.stdout).errors[0]).toMatchObject({ code: 'AMBIGUOUS', candidates: [2, 4] });
  expect(await readFile(join(dir, 'app.py'), 'utf8')).toBe(source);
  const r = runBin(PATCHSMITH_BIN, ['apply', '--no-snapshot'], { cwd: dir, input: block(4) });
  expect(r.stdout).toContain('[M] app.py (+1 -1)');
  expect(r.status).toBe(0);
  expect(await readFile(join(dir, 'app.py'), 'utf8')).toBe(
    text('while a:', '    i += 1', 'while b:', '    i += 2'),
  );
});

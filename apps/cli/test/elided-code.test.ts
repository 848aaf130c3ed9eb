/**
 * The elided-code guard through the real bin: an edit that replaces lines by a placeholder exits 1
 * with ELIDED_CODE (human and JSON), the file unchanged; `--allow-elision` applies it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';

const SOURCE = 'def area(w, h):\n    check(w)\n    check(h)\n    return w * h\n';
const PATCH = [
  '*** Begin Patch',
  '*** Update File: shapes.py',
  '@@ def area(w, h):',
  '-    check(w)',
  '-    check(h)',
  '+    # ... existing checks ...',
  '     return w * h',
  '*** End Patch',
  '',
].join('\n');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-cli-elided-'));
  await writeFile(join(dir, 'shapes.py'), SOURCE);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('refuses a placeholder that stands for deleted lines, naming the line', async () => {
  const human = runBin(PATCHSMITH_BIN, ['apply', '--no-snapshot'], { cwd: dir, input: PATCH });
  expect(human.status).toBe(1);
  expect(human.stderr).toContain('ELIDED_CODE');
  expect(human.stderr).toContain('line 6');
  expect(human.stderr).toContain('re-send the full text of the lines you elided');
  const json = runBin(PATCHSMITH_BIN, ['apply', '--no-snapshot', '--json'], { cwd: dir, input: PATCH });
  expect(json.status).toBe(1);
  expect(JSON.parse(json.stdout).errors).toMatchObject([{ code: 'ELIDED_CODE', path: 'shapes.py', line: 6 }]);
  expect(await readFile(join(dir, 'shapes.py'), 'utf8')).toBe(SOURCE);
});

it('--allow-elision applies it', async () => {
  const result = runBin(PATCHSMITH_BIN, ['apply', '--no-snapshot', '--allow-elision'], {
    cwd: dir,
    input: PATCH,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(await readFile(join(dir, 'shapes.py'), 'utf8')).toBe(
    'def area(w, h):\n    # ... existing checks ...\n    return w * h\n',
  );
});

it('patchsmith diff refuses it too, and prints it with --allow-elision', () => {
  const refused = runBin(PATCHSMITH_BIN, ['diff'], { cwd: dir, input: PATCH });
  expect(refused.status).toBe(1);
  expect(refused.stderr).toContain('ELIDED_CODE');
  const printed = runBin(PATCHSMITH_BIN, ['diff', '--allow-elision'], { cwd: dir, input: PATCH });
  expect(printed.status).toBe(0);
  expect(printed.stdout).toContain('+    # ... existing checks ...');
});

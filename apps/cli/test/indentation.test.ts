import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-indent-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('a tab-indented file gets tabs where the model wrote spaces, and the CLI says so', async () => {
  await writeFile(join(dir, 'main.go'), 'func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n');
  const patch = [
    '*** Begin Patch',
    '*** Update File: main.go',
    '@@',
    '     if x {',
    '-        return 1',
    '+        log(x)',
    '+        return 2',
    '*** End Patch',
    '',
  ].join('\n');
  const r = runBin(PATCHSMITH_BIN, ['apply', '--no-snapshot'], { cwd: dir, input: patch });
  expect(r.status).toBe(0);
  expect(await readFile(join(dir, 'main.go'), 'utf8')).toBe(
    'func f() {\n\tif x {\n\t\tlog(x)\n\t\treturn 2\n\t}\n}\n',
  );
  expect(r.stdout).toContain(
    "chunk 1 at line 2: matched by the trimmed pass; added lines re-indented to the file's style",
  );
});

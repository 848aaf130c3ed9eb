import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PATCHSMITH_BIN } from './bins.js';

// --diagnostics with the real servers (devDependencies of @patchsmith/cli, found beside it as a
// user's install has them; see server-discovery.test.ts): errors the edit caused in files it did
// not touch, a clean edit said so, progress on stderr, and a bounded wait.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-diagnostics-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function apply(patch: string, ...flags: string[]) {
  const r = spawnSync(
    process.execPath,
    [PATCHSMITH_BIN, 'apply', '--diagnostics', '--no-snapshot', ...flags],
    {
      cwd: dir,
      input: patch,
      encoding: 'utf8',
      timeout: 40_000,
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  expect(r.signal).toBeNull();
  return r;
}

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');

describe('--diagnostics across the project', () => {
  it('TypeScript: a renamed export breaks the file that imports it, which is reported; a clean edit says so', async () => {
    await writeFile(join(dir, 'tsconfig.json'), '{"compilerOptions": {"strict": true}}');
    await writeFile(join(dir, 'a.ts'), 'export function foo(): number {\n  return 1;\n}\n');
    await writeFile(join(dir, 'b.ts'), "import { foo } from './a';\nexport const x: number = foo();\n");
    const clean = apply(patch('*** Update File: a.ts', '@@', '-  return 1;', '+  return 2;'));
    expect(clean.status).toBe(0);
    expect(clean.stdout).toMatch(/✓ no new problems in 2 file\(s\)\n$/);
    expect(clean.stderr).toMatch(
      /^patchsmith: starting typescript-language-server…\npatchsmith: typescript-language-server ready \(\d+\.\d s\)\n$/,
    );

    const renamed = apply(
      patch(
        '*** Update File: a.ts',
        '@@',
        '-export function foo(): number {',
        '+export function bar(): number {',
      ),
      '--json',
    );
    expect(renamed.status).toBe(0);
    expect(JSON.parse(renamed.stdout).diagnostics).toEqual([
      { path: 'a.ts', status: 'ok', diagnostics: [], omitted: 0 },
      {
        path: 'b.ts',
        status: 'ok',
        dependent: true,
        omitted: 0,
        diagnostics: [expect.objectContaining({ message: `Module '"./a"' has no exported member 'foo'.` })],
      },
    ]);
  }, 60_000);

  it('Python (pyright): a renamed function breaks the module that imports it', async () => {
    await writeFile(join(dir, 'pyrightconfig.json'), '{}');
    await writeFile(join(dir, 'lib.py'), 'def foo() -> int:\n    return 1\n');
    await writeFile(join(dir, 'main.py'), 'from lib import foo\n\nprint(foo())\n');
    const r = apply(patch('*** Update File: lib.py', '@@', '-def foo() -> int:', '+def bar() -> int:'));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('✖ main.py: 1 new error(s) (not edited: it uses an edited file)');
    expect(r.stdout).toMatch(/main\.py:1:17 "foo" is unknown import symbol/);
    expect(r.stderr).toContain('patchsmith: starting pyright-langserver…');
  }, 60_000);

  it('--diagnostics-timeout bounds the whole wait and says so; the edit stays applied', async () => {
    await writeFile(join(dir, 'tsconfig.json'), '{}');
    await writeFile(join(dir, 'a.ts'), 'export const n = 1;\n');
    const r = apply(
      patch('*** Update File: a.ts', '@@', '-export const n = 1;', '+export const n = 2;'),
      '--diagnostics-timeout',
      '0.05',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      '! a.ts: diagnostics timeout (no answer within 0.05 s (the diagnostics timeout))',
    );
    expect(apply('', '--diagnostics-timeout', 'soon')).toMatchObject({ status: 2 });
  }, 60_000);
});

import { spawnSync } from 'node:child_process';
import { access, copyFile, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Which language servers `--diagnostics` runs. The bundle is copied into an install folder of its
// own (as `npm install @patchsmith/cli` lays it out), with or without typescript-language-server,
// typescript and pyright installed beside it; PATH holds no server. A repository is untrusted: the
// servers and the TypeScript in its node_modules run only with --project-servers.

const CLI = fileURLToPath(new URL('..', import.meta.url));
const CLI_MODULES = fileURLToPath(new URL('../node_modules', import.meta.url));
// PATH without a folder that could hold a server (node_modules/.bin folders).
const BARE_PATH = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => !dir.includes('node_modules'))
  .join(delimiter);

let work: string;
let beside: string;
let alone: string;

/** An install folder with the CLI's bin and bundle in `node_modules/@patchsmith/cli`, and `packages` beside it; its bin. */
async function install(name: string, packages: string[]): Promise<string> {
  const modules = join(work, name, 'node_modules');
  const cli = join(modules, '@patchsmith', 'cli');
  for (const file of ['bin/patchsmith.cjs', 'bin/launch.cjs', 'dist/bundle/patchsmith.cjs']) {
    await mkdir(dirname(join(cli, file)), { recursive: true });
    await copyFile(join(CLI, file), join(cli, file));
  }
  for (const pkg of packages)
    await symlink(await realpath(join(CLI_MODULES, pkg)), join(modules, pkg), 'dir');
  return join(cli, 'bin', 'patchsmith.cjs');
}

beforeAll(async () => {
  work = await realpath(await mkdtemp(join(tmpdir(), 'ps-servers-')));
  beside = await install('with-servers', ['typescript-language-server', 'typescript', 'pyright']);
  alone = await install('alone', []);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A fresh project folder with `files`. */
async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(work, 'project-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text, { mode: name.includes('.bin/') ? 0o755 : 0o644 });
  }
  return dir;
}

function apply(bundle: string, dir: string, patch: string, ...flags: string[]) {
  const r = spawnSync(
    process.execPath,
    [bundle, 'apply', '--diagnostics', '--no-snapshot', '--json', ...flags],
    {
      cwd: dir,
      input: patch,
      encoding: 'utf8',
      timeout: 40_000,
      // pnpm's bin shims set NODE_PATH to its hoisted packages: a user's shell has none.
      env: { ...process.env, NO_COLOR: '1', PATH: BARE_PATH, NODE_PATH: '' },
    },
  );
  expect(r.signal).toBeNull();
  return { status: r.status, stderr: r.stderr, report: JSON.parse(r.stdout) };
}

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch', ''].join('\n');
const RENAME_TS = patch(
  '*** Update File: a.ts',
  '@@',
  '-export function foo(): number {',
  '+export function bar(): number {',
);
const TS_FILES = {
  'tsconfig.json': '{"compilerOptions": {"strict": true}}',
  'a.ts': 'export function foo(): number {\n  return 1;\n}\n',
  'b.ts': "import { foo } from './a';\nexport const x: number = foo();\n",
};

// What the planted programs do when run: leave a file that says so.
const MARKER = 'ran.txt';
const plantedServer = `#!/bin/sh\necho server > "$(dirname "$0")/../../${MARKER}"\n`;
const plantedTsserver = `require('node:fs').writeFileSync(require('node:path').join(__dirname, '../../../${MARKER}'), 'tsserver');\n`;
const ran = (dir: string) =>
  access(join(dir, MARKER)).then(
    () => true,
    () => false,
  );

describe('language servers the bundled CLI finds', () => {
  it('typescript-language-server and typescript beside the CLI: a renamed export is reported in the file that imports it; the repository’s own typescript and server are not run', async () => {
    const dir = await project({
      ...TS_FILES,
      'package.json': '{}',
      'node_modules/typescript/package.json': '{"name": "typescript", "version": "5.9.3"}',
      'node_modules/typescript/lib/tsserver.js': plantedTsserver,
      'node_modules/.bin/typescript-language-server': plantedServer,
    });
    const r = apply(beside, dir, RENAME_TS);
    expect(r.status).toBe(0);
    expect(r.report.diagnostics).toEqual([
      { path: 'a.ts', status: 'ok', diagnostics: [], omitted: 0 },
      {
        path: 'b.ts',
        status: 'ok',
        dependent: true,
        omitted: 0,
        diagnostics: [expect.objectContaining({ message: `Module '"./a"' has no exported member 'foo'.` })],
      },
    ]);
    expect(await ran(dir)).toBe(false);
  }, 60_000);

  it('pyright installed beside the CLI: a renamed function is reported in the module that imports it', async () => {
    const dir = await project({
      'pyrightconfig.json': '{}',
      'lib.py': 'def foo() -> int:\n    return 1\n',
      'main.py': 'from lib import foo\n\nprint(foo())\n',
    });
    const r = apply(
      beside,
      dir,
      patch('*** Update File: lib.py', '@@', '-def foo() -> int:', '+def bar() -> int:'),
    );
    expect(r.status).toBe(0);
    expect(r.report.diagnostics[1]).toMatchObject({
      path: 'main.py',
      dependent: true,
      diagnostics: [expect.objectContaining({ message: '"foo" is unknown import symbol' })],
    });
  }, 60_000);

  it('a server planted in the repository is not run without --project-servers; the report says where it is', async () => {
    const dir = await project({
      ...TS_FILES,
      'node_modules/.bin/typescript-language-server': plantedServer,
      'node_modules/.bin/pyright-langserver': plantedServer,
    });
    const withPython = RENAME_TS.replace('*** End Patch', '*** Add File: x.py\n+x = 1\n*** End Patch');
    const r = apply(alone, dir, withPython, '--diagnostics-timeout', '5');
    expect(r.status).toBe(0);
    expect(r.report.diagnostics).toMatchObject([
      {
        path: 'a.ts',
        status: 'server-missing',
        note: expect.stringContaining('no typescript beside patchsmith'),
      },
      {
        path: 'x.py',
        status: 'server-missing',
        note: expect.stringContaining(
          `${join(dir, 'node_modules/.bin/pyright-langserver')} (not run: the project's node_modules/.bin is the repository's code, run only when trusted)`,
        ),
      },
    ]);
    expect(await ran(dir)).toBe(false);

    // The user's opt-in, on the command line (never from the repository), runs it.
    const trusted = apply(
      alone,
      dir,
      patch('*** Update File: a.ts', '@@', '-  return 1;', '+  return 2;'),
      '--project-servers',
      '--diagnostics-timeout',
      '5',
    );
    expect(trusted.status).toBe(0);
    expect(await ran(dir)).toBe(true);
  }, 60_000);

  it('.patchsmith.json cannot opt in', async () => {
    const dir = await project({
      ...TS_FILES,
      '.patchsmith.json': '{"diagnostics": true, "projectServers": true}',
      'node_modules/.bin/typescript-language-server': plantedServer,
    });
    const r = apply(alone, dir, RENAME_TS);
    expect(r.status).toBe(1);
    expect(r.report.errors[0]).toMatchObject({ code: 'PARSE_ERROR' });
    expect(await ran(dir)).toBe(false);
  });
});

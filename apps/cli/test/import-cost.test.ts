import { spawnSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Run against the built output (`pnpm exec turbo run build --filter=@patchsmith/cli...` first):
// what a host loads is the dist, not the sources vitest resolves.

/** A module-customization hook that writes every URL the process resolves to stdout, one a line. */
const RECORD_HOOKS = `
import { writeSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  writeSync(1, 'resolved ' + resolved.url + '\\n');
  return resolved;
}`;
const REGISTER = `
import { register } from 'node:module';
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(RECORD_HOOKS)}`)});`;

/** Every module URL that importing `entry` (a file URL) resolves, in a fresh node process. */
function modulesLoadedBy(entry: string): string[] {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(REGISTER)}`,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(entry)});`,
    ],
    { encoding: 'utf8' },
  );
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout
    .split('\n')
    .filter((line) => line.startsWith('resolved '))
    .map((line) => line.slice('resolved '.length));
}

const distOf = (pkg: string) => new URL(`../../../packages/${pkg}/dist/index.js`, import.meta.url).href;

// A path segment of the Peggy parsers grammar generates (packages/grammar/dist/generated/*.js).
const isGeneratedParser = (url: string) => url.includes('/generated/');

describe('importing a package that does not parse patches loads no parser', () => {
  it('the recorder sees the parsers when grammar itself is imported (the check can fail)', () => {
    expect(modulesLoadedBy(distOf('grammar')).filter(isGeneratedParser)).not.toEqual([]);
  });

  it.each(['apply', 'snapshot', 'lsp', 'planner', 'fuzzy', 'formatter', 'core'])('%s', (pkg) => {
    const loaded = modulesLoadedBy(distOf(pkg));
    expect(loaded).toContain(distOf(pkg));
    expect(loaded.filter(isGeneratedParser)).toEqual([]);
  });
});

/**
 * The CommonJS modules loaded after importing core's dist and running `then` with it as `core`,
 * in a fresh node process. A `require` never reaches the ESM resolve hook, so this reads the
 * require cache instead.
 */
function commonJsLoadedAfter(then: string): string[] {
  const core = distOf('core');
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { createRequire } from 'node:module';
const core = await import(${JSON.stringify(core)});
${then};
console.log(JSON.stringify(Object.keys(createRequire(${JSON.stringify(core)}).cache)));`,
    ],
    { encoding: 'utf8' },
  );
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as string[];
}

describe('core matches permission rules with no glob library', () => {
  it('a rule decides, and nothing CommonJS (picomatch was) is loaded for it', () => {
    const loaded = commonJsLoadedAfter(
      "if (core.decidePath('k/k.pem', { rules: [{ match: '*.pem', action: 'deny' }] }).action !== 'deny') throw new Error('not denied')",
    );
    expect(loaded).toEqual([]);
  });
});

const bundleDir = fileURLToPath(new URL('../dist/bundle/', import.meta.url));

/** The bundle's files and their text. */
async function bundleFiles(): Promise<Array<[string, string]>> {
  const names = (await readdir(bundleDir)).filter((name) => name.endsWith('.cjs'));
  return Promise.all(
    names.map(async (name) => [name, await readFile(bundleDir + name, 'utf8')] as [string, string]),
  );
}

// The apps a host installs beside the CLI, loaded on demand from their own package; every library
// package is inlined, so each class (PatchsmithError above all) exists once at run time.
const SEPARATE_APPS = ['@patchsmith/mcp'];

describe('the CLI bundle', () => {
  it('each bin (one bundle file, one process) defines PatchsmithError exactly once', async () => {
    const files = await bundleFiles();
    expect(files.map(([name]) => name).sort()).toEqual(['apply_patch.cjs', 'patchsmith.cjs']);
    for (const [, text] of files)
      expect([...text.matchAll(/\bPatchsmithError\s*=\s*class\b|\bclass PatchsmithError\b/g)]).toHaveLength(
        1,
      );
  });

  it('imports no library package from outside: all are inlined the same way', async () => {
    const imported = (await bundleFiles()).flatMap(([, text]) =>
      [...text.matchAll(/(?:from|import)\s*\(?\s*["'](@patchsmith\/[^"']+)["']/g)].map((m) => m[1]),
    );
    expect(imported.filter((specifier) => !SEPARATE_APPS.includes(specifier!))).toEqual([]);
  });
});

const ONE_LINE_PATCH = '*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hi\n*** End Patch\n';

/**
 * The Node built-ins a bin loads beyond Node's own start, running `args` in a fresh git-less
 * folder holding `a.txt`: a preload records `process.moduleLoadList` at exit.
 */
async function builtinsLoadedBy(bin: string, args: string[], input?: string): Promise<string[]> {
  // (a.txt and patch.txt, the one-line patch of a.txt, are in the folder)
  const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'ps-builtins-'));
  try {
    await writeFile(join(dir, 'a.txt'), 'hello\nworld\n');
    await writeFile(join(dir, 'patch.txt'), ONE_LINE_PATCH);
    const out = join(dir, 'loaded.json');
    const preload = join(dir, 'record.cjs');
    await writeFile(
      preload,
      `const before = new Set(process.moduleLoadList);
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)},
  JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule ')).map((m) => m.slice(13)))));`,
    );
    const r = spawnSync(process.execPath, ['-r', preload, bin, ...args], {
      cwd: dir,
      encoding: 'utf8',
      ...(input !== undefined && { input }),
    });
    if (input === undefined) expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return JSON.parse(await readFile(out, 'utf8')) as string[];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Each costs 12-18 M instructions (cachegrind) of a start-up, and a plain apply needs none of them.
// readline, tty and net are the prompt's (with streams: 32 modules, ~2 ms), loaded when it asks.
const COLD_BUILTINS = ['crypto', 'zlib', 'child_process', 'readline', 'tty', 'net'];

describe('a one-line apply loads no cold Node built-in', () => {
  const bin = (name: string) => fileURLToPath(new URL(`../bin/${name}.cjs`, import.meta.url));

  it('apply_patch loads none of node:crypto, node:zlib, node:child_process, node:readline, node:tty', async () => {
    const loaded = await builtinsLoadedBy(bin('apply_patch'), [ONE_LINE_PATCH]);
    expect(loaded).toContain('fs/promises'); // the recorder sees what the bin loads
    expect(loaded.filter((name) => COLD_BUILTINS.includes(name))).toEqual([]);
  });

  it('patchsmith apply --no-snapshot loads none of them either', async () => {
    const loaded = await builtinsLoadedBy(bin('patchsmith'), ['apply', 'patch.txt', '--no-snapshot']);
    expect(loaded.filter((name) => COLD_BUILTINS.includes(name))).toEqual([]);
  });

  it('the recorder sees the prompt modules where it asks: --confirm reads the answer with readline', async () => {
    const loaded = await builtinsLoadedBy(
      bin('patchsmith'),
      ['apply', 'patch.txt', '--no-snapshot', '--confirm'],
      'y\n',
    );
    expect(loaded).toContain('readline');
  });

  it('the recorder sees them where they are needed: a snapshot hashes and deflates', async () => {
    const loaded = await builtinsLoadedBy(bin('patchsmith'), ['apply', 'patch.txt']);
    expect(loaded).toEqual(expect.arrayContaining(['crypto', 'zlib']));
  });
});

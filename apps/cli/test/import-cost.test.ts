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

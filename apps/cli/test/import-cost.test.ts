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

const bundleDir = fileURLToPath(new URL('../dist/bundle/', import.meta.url));

/** The bundle's files and their text. */
async function bundleFiles(): Promise<Array<[string, string]>> {
  const names = (await readdir(bundleDir)).filter((name) => name.endsWith('.mjs'));
  return Promise.all(
    names.map(async (name) => [name, await readFile(bundleDir + name, 'utf8')] as [string, string]),
  );
}

// The apps a host installs beside the CLI, loaded on demand from their own package; every library
// package is inlined, so each class (PatchsmithError above all) exists once at run time.
const SEPARATE_APPS = ['@patchsmith/mcp'];

describe('the CLI bundle', () => {
  it('defines PatchsmithError exactly once', async () => {
    const definitions = (await bundleFiles()).flatMap(([name, text]) =>
      [...text.matchAll(/\bPatchsmithError = class\b|\bclass PatchsmithError\b/g)].map(() => name),
    );
    expect(definitions).toHaveLength(1);
  });

  it('imports no library package from outside: all are inlined the same way', async () => {
    const imported = (await bundleFiles()).flatMap(([, text]) =>
      [...text.matchAll(/(?:from|import)\s*\(?\s*["'](@patchsmith\/[^"']+)["']/g)].map((m) => m[1]),
    );
    expect(imported.filter((specifier) => !SEPARATE_APPS.includes(specifier!))).toEqual([]);
  });
});

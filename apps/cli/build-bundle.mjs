#!/usr/bin/env node
// Bundles the two bins after tsc: an agent may call them hundreds of times, and one CommonJS file
// per bin, compiled through V8's code cache by bin/launch.cjs, starts much faster than ~100 ES
// modules (see launch.cjs for the measurement). Every library package is inlined, so each class
// exists once at run time and `instanceof PatchsmithError` holds for an error from any of them;
// only the MCP server, installed beside the CLI, stays outside (loaded with `import()`).
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

/**
 * Bundles a package's ES module build instead of its UMD `main`: a UMD factory's `require` is a
 * parameter, so esbuild cannot see the files it loads (jsonc-parser's `./impl/*`).
 */
function esmBuildOf(name, entry) {
  return {
    name: `esm-build-of-${name}`,
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: new RegExp(`^${name}$`) }, ({ resolveDir, kind }) =>
        pluginBuild.resolve(entry, { resolveDir, kind }),
      );
    },
  };
}

await rm('dist/bundle', { recursive: true, force: true });

const entries = { patchsmith: 'dist/patchsmith.js', apply_patch: 'dist/apply-patch.js' };

await build({
  entryPoints: entries,
  outdir: 'dist/bundle',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['@patchsmith/mcp'],
  // `import()` of a built-in or a bundled module becomes `require`: vm.Script code has no `import()`.
  supported: { 'dynamic-import': false },
  // Packages that find files beside themselves (the language servers) use import.meta.url.
  define: { 'import.meta.url': '__psImportMetaUrl' },
  banner: { js: "var __psImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Fewer bytes to read and no comments: the launcher reads the whole source on every call.
  minifyWhitespace: true,
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [esmBuildOf('jsonc-parser', 'jsonc-parser/lib/esm/main.js')],
});

/**
 * The source with every non-ASCII character as a `\uXXXX` escape (esbuild leaves a few inside
 * dependencies' regular expressions): one non-ASCII character makes V8 hold the whole 1 MB source
 * as a two-byte string, which cost ~20 M instructions per start (cachegrind) to read.
 */
const asciiOnly = (source) =>
  source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

// The first line keys the code cache by content: V8 checks a cache only against the source length.
for (const name of Object.keys(entries)) {
  const file = `dist/bundle/${name}.cjs`;
  const source = asciiOnly(await readFile(file, 'utf8'));
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 32);
  await writeFile(file, `// patchsmith-bundle ${hash}\n${source}`);
}

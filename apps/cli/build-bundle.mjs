#!/usr/bin/env node
// Bundles the two bins after tsc: an agent may call them hundreds of times, and one file per
// entry (with lazily loaded chunks for commands that need more) starts much faster than ~100
// separate ES modules. Every library package is inlined (language-server support in a chunk loaded
// on demand), so each class exists once at run time and `instanceof PatchsmithError` holds for an
// error from any of them; only the adapters, installed beside the CLI, stay outside.
import { rm } from 'node:fs/promises';
import { build } from 'esbuild';

// Chunk names carry content hashes: clear out the last build's, which nothing imports any more.
await rm('dist/bundle', { recursive: true, force: true });

await build({
  entryPoints: { patchsmith: 'dist/patchsmith.js', apply_patch: 'dist/apply-patch.js' },
  outdir: 'dist/bundle',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@patchsmith/mcp'],
  // A few dependencies are CommonJS: give the ESM bundle a `require` for them.
  banner: { js: "import { createRequire as __psCreateRequire } from 'node:module'; const require = __psCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  legalComments: 'none',
});

#!/usr/bin/env node
// Bundles the two bins after tsc: an agent may call them hundreds of times, and one file per
// entry (with lazily loaded chunks for commands that need more) starts much faster than ~100
// separate ES modules. Language servers and the adapters stay outside, loaded only on demand.
import { build } from 'esbuild';

await build({
  entryPoints: { patchsmith: 'dist/patchsmith.js', apply_patch: 'dist/apply-patch.js' },
  outdir: 'dist/bundle',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@patchsmith/lsp', '@patchsmith/adapters'],
  // A few dependencies are CommonJS: give the ESM bundle a `require` for them.
  banner: { js: "import { createRequire as __psCreateRequire } from 'node:module'; const require = __psCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  legalComments: 'none',
});

#!/usr/bin/env node
// Compiles every src/*.peggy grammar of the current package into src/generated/<name>.js (ES
// module) plus its .d.ts, through Peggy's CLI.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';

const cwd = process.cwd();
const require = createRequire(join(cwd, 'package.json'));
const peggyCli = join(require.resolve('peggy/package.json'), '..', 'bin', 'peggy.js');
const outDir = join(cwd, 'src', 'generated');
mkdirSync(outDir, { recursive: true });

for (const file of readdirSync(join(cwd, 'src')).filter((f) => f.endsWith('.peggy'))) {
  const out = join(outDir, `${basename(file, '.peggy')}.js`);
  const r = spawnSync(process.execPath, [peggyCli, '--format', 'es', '--dts', '-o', out, join('src', file)], {
    cwd,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

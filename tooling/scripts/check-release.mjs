#!/usr/bin/env node
// Packaging check run with lint: `changeset version` on a dry run. The workspace's manifests and
// pending changesets are copied to a temporary folder, versioned there, and the result thrown away.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'ps-release-'));
try {
  for (const file of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(root, file), join(scratch, file));
  cpSync(join(root, '.changeset'), join(scratch, '.changeset'), { recursive: true });
  for (const group of ['packages', 'apps', 'tooling']) {
    for (const name of readdirSync(join(root, group))) {
      const manifest = join(root, group, name, 'package.json');
      try {
        mkdirSync(join(scratch, group, name), { recursive: true });
        cpSync(manifest, join(scratch, group, name, 'package.json'));
      } catch {
        // a folder without a manifest is not a package
      }
    }
  }
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'));
  const changeset = join(root, 'node_modules', '@changesets', 'cli', 'bin.js');
  const r = spawnSync(process.execPath, [changeset, 'version'], { cwd: scratch, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`changeset version failed on a dry run:\n${r.stdout}${r.stderr}`);
    process.exit(1);
  }
  console.log('changeset version: ok on a dry run');
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

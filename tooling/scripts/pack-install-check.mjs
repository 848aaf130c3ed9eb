#!/usr/bin/env node
// The packed-tarball install check (CI): packs the host packages (@patchsmith/mcp,
// @patchsmith/adapters) and every workspace package they need with `pnpm pack`, checks each
// tarball's manifest (real versions, no `workspace:`, `engines`, a LICENSE), then, as a user
// would, starts the MCP server in a fresh folder with `npx -p <tarballs> patchsmith-mcp` and lists
// its tools. Needs the packages built. Exit 0: passed, 1: failed, 3: skipped (the npm registry is
// unreachable; said on stdout).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const EXIT_SKIPPED = 3;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const HOSTS = ['@patchsmith/mcp', '@patchsmith/adapters'];

/** Every workspace package by name, with its folder and manifest. */
function workspacePackages() {
  const found = new Map();
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      const file = join(root, group, name, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      found.set(manifest.name, { dir: join(root, group, name), manifest });
    }
  }
  return found;
}

/** The hosts and every `@patchsmith/*` package they depend on, transitively. */
function needed(all) {
  const names = new Set();
  const visit = (name) => {
    if (names.has(name)) return;
    names.add(name);
    for (const dep of Object.keys(all.get(name).manifest.dependencies ?? {})) {
      if (dep.startsWith('@patchsmith/')) visit(dep);
    }
  };
  for (const host of HOSTS) visit(host);
  return [...names].sort();
}

/** What is wrong with a packed manifest and file list, as lines. */
function tarballProblems(name, manifest, files) {
  const problems = [];
  for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
    if (String(range).startsWith('workspace:')) problems.push(`${name}: dependency ${dep} is still ${range}`);
  }
  for (const [dep, range] of Object.entries(manifest.peerDependencies ?? {})) {
    if (String(range).startsWith('workspace:')) problems.push(`${name}: peer ${dep} is still ${range}`);
  }
  if (!manifest.engines?.node) problems.push(`${name}: no engines.node`);
  if (!files.includes('package/LICENSE')) problems.push(`${name}: no LICENSE in the tarball`);
  if (manifest.type !== 'module') problems.push(`${name}: not "type": "module" (its README says ESM only)`);
  return problems;
}

function registryReachable() {
  return spawnSync('npm', ['ping'], { encoding: 'utf8', timeout: 20_000 }).status === 0;
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pack-check', version: '1' } },
};
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

function main() {
  if (!registryReachable()) {
    console.log('skipped: the npm registry is unreachable (npm ping failed); nothing was checked');
    return EXIT_SKIPPED;
  }
  const all = workspacePackages();
  const names = needed(all);
  const scratch = mkdtempSync(join(tmpdir(), 'ps-pack-'));
  try {
    const packs = join(scratch, 'tarballs');
    const problems = [];
    const tarballs = [];
    for (const name of names) {
      const { dir } = all.get(name);
      if (!existsSync(join(dir, 'dist'))) problems.push(`${name}: not built (no dist); run the build first`);
      const out = execFileSync('pnpm', ['pack', '--pack-destination', packs], { cwd: dir, encoding: 'utf8' });
      const tarball = out.trim().split('\n').at(-1);
      tarballs.push(tarball);
      const manifest = JSON.parse(execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }));
      const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
      problems.push(...tarballProblems(name, manifest, files));
    }
    // A fresh folder, as a user's: `npx -p` installs the tarballs together, as npm would install the
    // published packages (each @patchsmith dependency found among them).
    const fresh = join(scratch, 'fresh');
    execFileSync('mkdir', ['-p', fresh]);
    const served = spawnSync(
      'npx',
      ['--yes', ...tarballs.flatMap((t) => ['-p', t]), 'patchsmith-mcp', '--cwd', fresh],
      {
        cwd: fresh,
        input: `${JSON.stringify(INIT)}\n${JSON.stringify(LIST)}\n`,
        encoding: 'utf8',
        timeout: 300_000,
        env: { ...process.env, npm_config_prefer_offline: 'true' },
      },
    );
    const replies = served.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    const tools = replies.find((r) => r.id === 2)?.result?.tools?.map((t) => t.name).sort() ?? [];
    if (served.status !== 0 || tools.join(',') !== 'apply_patch,edit,log,undo,view') {
      problems.push(`npx patchsmith-mcp: exit ${served.status}, tools [${tools}]\n${served.stderr.slice(-2000)}`);
    }
    if (problems.length > 0) {
      console.error(`pack-install check failed:\n${problems.map((p) => `  ${p}`).join('\n')}`);
      return 1;
    }
    console.log(`pack-install check: ${names.length} tarballs ok; npx patchsmith-mcp lists ${tools.join(', ')}`);
    return 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();

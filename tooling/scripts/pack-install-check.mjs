#!/usr/bin/env node
// The packed-tarball install check (CI): packs the host packages (@patchsmith/mcp,
// @patchsmith/adapters) and every workspace package they need with `pnpm pack`, checks each
// tarball's manifest (real versions, no `workspace:`, `engines`, a LICENSE), then, as a user
// would: installs the tarballs with the latest release of every SDK into a fresh project (one
// `npm install`) and makes one call per adapter through its SDK (apps/adapters/scripts/pack-install-smoke.mjs), and
// starts the MCP server in a fresh folder with `npx -p <tarballs> patchsmith-mcp` and lists its
// tools. Needs the packages built and the npm registry. Exit 0: passed, 1: failed (saying what;
// an unreachable registry is a failure too, never a skip).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const HOSTS = ['@patchsmith/mcp', '@patchsmith/adapters'];
/** The SDKs the adapters serve, installed at their latest release as a new user would. */
const LATEST_SDKS = ['ai', 'openai', '@openai/agents', '@anthropic-ai/sdk', '@langchain/core'];

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

/** What pack-install-smoke.mjs reports, in its order: one call per adapter entry. */
const ADAPTERS = ['main', 'openai', 'openai-agents', 'anthropic', 'vercel', 'langchain'];

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'pack-check', version: '1' },
  },
};
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

function main() {
  if (!registryReachable()) {
    console.error(
      'pack-install check failed: the npm registry is unreachable (npm ping failed); it needs it',
    );
    return 1;
  }
  const all = workspacePackages();
  const names = needed(all);
  const scratch = mkdtempSync(join(tmpdir(), 'ps-pack-'));
  try {
    const packs = join(scratch, 'tarballs');
    let adapterVersions = [];
    const problems = [];
    const tarballs = [];
    for (const name of names) {
      const { dir } = all.get(name);
      if (!existsSync(join(dir, 'dist'))) problems.push(`${name}: not built (no dist); run the build first`);
      const out = execFileSync('pnpm', ['pack', '--pack-destination', packs], { cwd: dir, encoding: 'utf8' });
      const tarball = out.trim().split('\n').at(-1);
      tarballs.push(tarball);
      const manifest = JSON.parse(
        execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }),
      );
      const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
      problems.push(...tarballProblems(name, manifest, files));
    }
    // A fresh project, as a new user's: the tarballs and today's SDKs in one install, then one call
    // per adapter. `--prefer-offline` reuses npm's cache, so a second run is quick.
    const project = join(scratch, 'project');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'fresh', private: true, type: 'module' }),
    );
    const installed = spawnSync(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        ...tarballs,
        ...LATEST_SDKS.map((s) => `${s}@latest`),
      ],
      { cwd: project, encoding: 'utf8', timeout: 400_000 },
    );
    if (installed.status !== 0) {
      problems.push(
        `npm install of the tarballs with the latest SDKs: exit ${installed.status}\n${installed.stderr.slice(-3000)}`,
      );
    } else {
      const scripts = join(root, 'apps', 'adapters', 'scripts');
      copyFileSync(join(scripts, 'pack-install-smoke.mjs'), join(project, 'smoke.mjs'));
      copyFileSync(join(scripts, 'scripted-models.mjs'), join(project, 'scripted-models.mjs'));
      const smoke = spawnSync(process.execPath, ['smoke.mjs'], {
        cwd: project,
        encoding: 'utf8',
        timeout: 120_000,
      });
      const passed = smoke.stdout
        .split('\n')
        .filter((l) => l.startsWith('ok '))
        .map((l) => l.slice(3));
      if (smoke.status !== 0 || passed.join(',') !== ADAPTERS.join(',')) {
        problems.push(
          `one call per adapter with the latest SDKs: exit ${smoke.status}, passed [${passed}]\n${smoke.stderr.slice(-3000)}`,
        );
      }
      adapterVersions = LATEST_SDKS.map(
        (s) =>
          `${s}@${JSON.parse(readFileSync(join(project, 'node_modules', s, 'package.json'), 'utf8')).version}`,
      );
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
    const tools =
      replies
        .find((r) => r.id === 2)
        ?.result?.tools?.map((t) => t.name)
        .sort() ?? [];
    if (served.status !== 0 || tools.join(',') !== 'apply_patch,edit,log,undo,view') {
      problems.push(
        `npx patchsmith-mcp: exit ${served.status}, tools [${tools}]\n${served.stderr.slice(-2000)}`,
      );
    }
    if (problems.length > 0) {
      console.error(`pack-install check failed:\n${problems.map((p) => `  ${p}`).join('\n')}`);
      return 1;
    }
    console.log(
      `pack-install check: ${names.length} tarballs ok; ${ADAPTERS.join(', ')} called with ${adapterVersions.join(', ')}; ` +
        `npx patchsmith-mcp lists ${tools.join(', ')}`,
    );
    return 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();

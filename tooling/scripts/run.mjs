#!/usr/bin/env node
// Entry for the README's two commands. It needs only Node 20 and npm: it fetches the pinned pnpm
// into .tools/ (no global install, so it works without root), installs the workspace, then runs
// the requested job through turbo.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PNPM_VERSION = '10.34.9';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const toolsDir = join(root, '.tools');
const binDir = join(toolsDir, 'node_modules', '.bin');
const isWindows = process.platform === 'win32';
const env = {
  ...process.env,
  PATH: `${binDir}${isWindows ? ';' : ':'}${process.env.PATH ?? ''}`,
  TURBO_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
};

function run(cmd, args, { exitOnFailure = true } = {}) {
  const result = spawnSync(cmd, args, { cwd: root, env, stdio: 'inherit', shell: isWindows });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    if (exitOnFailure) process.exit(result.status ?? 1);
    process.exitCode = result.status ?? 1;
  }
}

function testReports() {
  const dirs = ['packages', 'apps', 'tooling'].flatMap((group) =>
    existsSync(join(root, group)) ? readdirSync(join(root, group)).map((name) => join(root, group, name)) : [],
  );
  return dirs.map((dir) => join(dir, 'node_modules', '.vitest', 'report.json'));
}

function clearTestReports() {
  for (const file of testReports()) rmSync(file, { force: true });
}

// One closing line for the whole workspace, in the plain form CI reads.
function printTestTotals() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of testReports().filter((f) => existsSync(f))) {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
  }
  if (failed === 0 && process.exitCode) failed = 1; // lint or a crashed suite failed without a test count
  console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
}

function pnpmVersion() {
  const r = spawnSync('pnpm', ['--version'], { cwd: root, env, encoding: 'utf8', shell: isWindows });
  return r.status === 0 ? r.stdout.trim() : null;
}

function ensurePnpm() {
  if (pnpmVersion() === PNPM_VERSION) return;
  const pnpmBin = join(binDir, isWindows ? 'pnpm.cmd' : 'pnpm');
  if (!existsSync(pnpmBin)) {
    console.log(`> installing pnpm ${PNPM_VERSION} into .tools/`);
    run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', toolsDir, `pnpm@${PNPM_VERSION}`]);
  }
}

const job = process.argv[2];
ensurePnpm();
run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline']);
const turbo = ['exec', 'turbo', 'run'];
switch (job) {
  case 'demo':
    run('pnpm', [...turbo, 'build', '--filter=@patchsmith/cli...', '--output-logs=errors-only']);
    run('node', [join(root, 'examples', 'demo.mjs')]);
    break;
  case 'test':
    clearTestReports();
    run('node', [join(root, 'tooling', 'scripts', 'check-release.mjs')], { exitOnFailure: false });
    run('pnpm', [...turbo, 'lint', 'test', '--concurrency=2', '--continue'], { exitOnFailure: false });
    // After the build: the grammar's generated parsers exist only then, and the check resolves them.
    run('pnpm', ['run', '--silent', 'lint:layering'], { exitOnFailure: false });
    printTestTotals();
    break;
  default:
    console.error('usage: node tooling/scripts/run.mjs demo|test');
    process.exit(2);
}

'use strict';
// Starts a bundled bin (dist/bundle/<name>.cjs) through a V8 code cache.
//
// Agents call these bins hundreds of times, so start-up counts. Measured on Node 20 (bench
// `startup`): compiling the bundle's ES modules took ~14 ms and the ES module loader ~10 ms more,
// per call. A CommonJS bundle compiled with `vm.Script` and V8's code cache skips both. Node 22
// has `module.enableCompileCache()` for this; Node 20 does not, hence this file. (A V8 startup
// snapshot would need `node --snapshot-blob FILE` on the command line, which a bin cannot pass.)
//
// The cache is bytecode V8 runs without re-checking it against the source (V8 compares only the
// source's length), so it is keyed by the bundle's content hash (written by the build on the
// bundle's first line) and read only from a folder this user owns that no one else can write:
// the bundle's own folder when it is writable (whoever can write there could replace the bundle
// itself), else the user's cache folder. `PATCHSMITH_COMPILE_CACHE=0` turns it off.

const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const vm = require('node:vm');
const Module = require('node:module');

const BUNDLE_DIR = path.join(__dirname, '..', 'dist', 'bundle');

// libuv runs fsync and unlink on a pool of 4 threads unless told otherwise. A transaction keeps
// many in flight, and the disk commits them together: fsyncing 1,000 staged files took 120 ms
// with 4 threads against 47–53 ms with 16 (2-core VM). libuv reads the size once, when the first
// call is queued, so one is queued here, and the variable is put back so that no child process
// (a formatter, a language server, git) inherits it. A size the user set is kept.
const POOL_SIZE = 'UV_THREADPOOL_SIZE';
const TRANSACTION_THREADS = '16';

function sizeThreadPool() {
  if (process.env[POOL_SIZE] !== undefined) return;
  process.env[POOL_SIZE] = TRANSACTION_THREADS;
  try {
    fs.stat(__filename, () => {});
  } finally {
    delete process.env[POOL_SIZE];
  }
}

/** `// patchsmith-bundle <hash>`: the build's first line, the content key of the cache. */
function bundleHash(source) {
  const match = /^\/\/ patchsmith-bundle ([0-9a-f]{16,64})\n/.exec(source);
  return match === null ? null : match[1];
}

// Folders and files only this user can change (POSIX); elsewhere, a regular file or folder.
function ownedAndPrivate(stats) {
  if (typeof process.getuid !== 'function') return true;
  return stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
}

/** The user's own cache folder, made private when it is created. */
function userCacheDir() {
  const home = os.homedir();
  const base =
    process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME)
      ? process.env.XDG_CACHE_HOME
      : process.platform === 'darwin'
        ? path.join(home, 'Library', 'Caches')
        : process.platform === 'win32' && process.env.LOCALAPPDATA
          ? process.env.LOCALAPPDATA
          : path.join(home, '.cache');
  return path.join(base, 'patchsmith', 'v8-cache');
}

/** A cache folder that is a real folder owned by this user and writable by no one else, or null. */
function privateDir(dir, create) {
  try {
    if (create) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stats = fs.lstatSync(dir);
    return stats.isDirectory() && ownedAndPrivate(stats) ? dir : null;
  } catch {
    return null;
  }
}

/** Where the cache is read from: the first candidate folder that holds one. */
function cacheDirs() {
  return [path.join(BUNDLE_DIR, '.v8-cache'), userCacheDir()];
}

function cacheName(name, hash) {
  return `${name}-${hash}-${process.version}-${process.arch}.bin`;
}

/** The cached bytecode for this bundle, Node and architecture, from a file only this user controls. */
function readCache(file) {
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    try {
      const stats = fs.fstatSync(fd);
      if (!stats.isFile() || !ownedAndPrivate(stats)) return undefined;
      return fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Writes the cache atomically (another process may be reading it); failures only cost speed. */
function writeCache(name, hash, data) {
  for (const candidate of cacheDirs()) {
    const dir = privateDir(candidate, true);
    if (dir === null) continue;
    const file = path.join(dir, cacheName(name, hash));
    const temp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(temp, data, { mode: 0o600, flag: 'wx' });
      fs.renameSync(temp, file);
      return;
    } catch {
      try {
        fs.unlinkSync(temp);
      } catch {}
    }
  }
}

/**
 * Loads `dist/bundle/<name>.cjs` and returns its exports; `finish()` (call it once the command
 * has run, so the functions it compiled are in the cache) writes the cache when there was none.
 */
function load(name) {
  const file = path.join(BUNDLE_DIR, `${name}.cjs`);
  const source = fs.readFileSync(file, 'utf8');
  const hash = process.env.PATCHSMITH_COMPILE_CACHE === '0' ? null : bundleHash(source);
  let cached;
  if (hash !== null)
    for (const candidate of cacheDirs()) {
      const dir = privateDir(candidate, false);
      cached = dir === null ? undefined : readCache(path.join(dir, cacheName(name, hash)));
      if (cached !== undefined) break;
    }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cached });
  // Code run by vm.Script cannot `import()` on Node 20; the optional, ES-module-only packages
  // beside the CLI are loaded through this (src/import-optional.ts).
  globalThis[Symbol.for('patchsmith.import')] = (specifier) => import(specifier);
  const bundle = { exports: {} };
  script
    .runInThisContext()
    .call(bundle.exports, bundle.exports, Module.createRequire(file), bundle, file, path.dirname(file));
  const finish = () => {
    if (hash !== null && (cached === undefined || script.cachedDataRejected))
      writeCache(name, hash, script.createCachedData());
  };
  return { exports: bundle.exports, finish };
}

/**
 * Runs the bin: `entry(exports, argv)` resolves to the exit code. The cache holds the functions
 * the run that wrote it compiled, and is kept from then on, so only a run down the path agents
 * call (`worthCaching(argv, exitCode)`, default: it succeeded) writes one: written by a `--help`,
 * the cache made every later one-line apply 7 ms slower (+29.7 against +22 ms over `node -e 0`).
 */
async function run(name, entry, worthCaching = (_argv, exitCode) => exitCode === 0) {
  sizeThreadPool();
  const { exports, finish } = load(name);
  const argv = process.argv.slice(2);
  process.exitCode = await entry(exports, argv);
  if (worthCaching(argv, process.exitCode)) finish();
}

module.exports = { run, bundleHash, sizeThreadPool };

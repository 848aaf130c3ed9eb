import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The bins run the bundle through bin/launch.cjs and V8's code cache. Each test runs a copy of the
// built package (bin + dist/bundle), so the caches it makes and breaks are its own.
const cliDir = fileURLToPath(new URL('..', import.meta.url));
const require = (await import('node:module')).createRequire(import.meta.url);
const { bundleHash } = require('../bin/launch.cjs') as { bundleHash(source: string): string | null };

const PATCH = '*** Begin Patch\n*** Update File: a.txt\n-old\n+new\n*** End Patch\n';

let base: string;
let pkg: string;
let work: string;
let userCache: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'ps-launch-'));
  pkg = join(base, 'pkg');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  cpSync(join(cliDir, 'bin'), join(pkg, 'bin'), { recursive: true });
  cpSync(join(cliDir, 'dist', 'bundle'), join(pkg, 'dist', 'bundle'), {
    recursive: true,
    filter: (source) => !source.includes('.v8-cache'),
  });
  work = join(base, 'work');
  mkdirSync(work);
  userCache = join(base, 'user-cache');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const bundleCacheDir = () => join(pkg, 'dist', 'bundle', '.v8-cache');
const userCacheDir = () => join(userCache, 'patchsmith', 'v8-cache');

/** Runs the copied `apply_patch` on a fresh a.txt; returns what it printed and did. */
function applyPatch(env: NodeJS.ProcessEnv = {}) {
  writeFileSync(join(work, 'a.txt'), 'old\n');
  const r = spawnSync(process.execPath, [join(pkg, 'bin', 'apply_patch.cjs')], {
    cwd: work,
    input: PATCH,
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: userCache, ...env },
  });
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    file: readFileSync(join(work, 'a.txt'), 'utf8'),
  };
}

const SUCCESS = {
  status: 0,
  stdout: 'Success. Updated the following files:\nM a.txt\n',
  stderr: '',
  file: 'new\n',
};

/** The one cache file in `dir` (its full path), or null. */
function cacheFileIn(dir: string): string | null {
  if (!existsSync(dir)) return null;
  const names = readdirSync(dir);
  expect(names.length).toBeLessThanOrEqual(1);
  return names[0] === undefined ? null : join(dir, names[0]);
}

// Identity of a file: a rewrite (temp + rename) gives a new inode.
const identity = (file: string) => {
  const s = lstatSync(file);
  return `${s.ino}:${s.size}:${s.mtimeMs}`;
};

describe('the bins start through a code cache', () => {
  it('the first run writes a private cache beside the bundle, keyed by bundle, Node and architecture', () => {
    expect(applyPatch()).toEqual(SUCCESS);
    const file = cacheFileIn(bundleCacheDir());
    expect(file).not.toBeNull();
    const source = readFileSync(join(pkg, 'dist', 'bundle', 'apply_patch.cjs'), 'utf8');
    expect(file!.endsWith(`apply_patch-${bundleHash(source)}-${process.version}-${process.arch}.bin`)).toBe(
      true,
    );
    if (process.platform !== 'win32') {
      expect(statSync(bundleCacheDir()).mode & 0o777).toBe(0o700);
      expect(statSync(file!).mode & 0o777).toBe(0o600);
    }
  });

  it('only an applied patch writes the cache: not --help, not a rejected patch', () => {
    const help = spawnSync(process.execPath, [join(pkg, 'bin', 'apply_patch.cjs'), '--help'], {
      cwd: work,
      env: { ...process.env, XDG_CACHE_HOME: userCache },
    });
    expect(help.status).toBe(0);
    writeFileSync(join(work, 'a.txt'), 'something else\n');
    const rejected = spawnSync(process.execPath, [join(pkg, 'bin', 'apply_patch.cjs')], {
      cwd: work,
      input: PATCH,
      env: { ...process.env, XDG_CACHE_HOME: userCache },
    });
    expect(rejected.status).toBe(1);
    expect(cacheFileIn(bundleCacheDir())).toBeNull();
    expect(cacheFileIn(userCacheDir())).toBeNull();
    expect(applyPatch()).toEqual(SUCCESS);
    expect(cacheFileIn(bundleCacheDir())).not.toBeNull();
  });

  it('patchsmith writes its cache on an applied edit, not on --help', () => {
    const patchsmith = (args: string[], input?: string) =>
      spawnSync(process.execPath, [join(pkg, 'bin', 'patchsmith.cjs'), ...args], {
        cwd: work,
        input,
        env: { ...process.env, XDG_CACHE_HOME: userCache },
      });
    expect(patchsmith(['--help']).status).toBe(0);
    expect(cacheFileIn(bundleCacheDir())).toBeNull();
    writeFileSync(join(work, 'a.txt'), 'old\n');
    expect(patchsmith(['apply', '-', '--no-snapshot'], PATCH).status).toBe(0);
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('new\n');
    expect(cacheFileIn(bundleCacheDir())).toMatch(/patchsmith-[0-9a-f]{32}-/);
  });

  it('a later run uses the cache as it is (V8 accepted it: it is not rewritten)', () => {
    applyPatch();
    const file = cacheFileIn(bundleCacheDir())!;
    const before = identity(file);
    expect(applyPatch()).toEqual(SUCCESS);
    expect(identity(file)).toBe(before);
  });

  it.each([
    ['random bytes', () => randomBytes(4096)],
    ['a truncated cache', (valid: Buffer) => valid.subarray(0, valid.length >> 1)],
    ['an empty file', () => Buffer.alloc(0)],
  ])('%s in its place: the run is the same, and the cache is rewritten', (_name, corrupt) => {
    applyPatch();
    const file = cacheFileIn(bundleCacheDir())!;
    writeFileSync(file, corrupt(readFileSync(file)), { mode: 0o600 });
    const broken = identity(file);
    expect(applyPatch()).toEqual(SUCCESS);
    expect(identity(file)).not.toBe(broken);
    expect(applyPatch()).toEqual(SUCCESS);
  });

  it('a cache file that is a link is never followed: it is replaced, its target untouched', () => {
    if (process.platform === 'win32') return;
    applyPatch();
    const file = cacheFileIn(bundleCacheDir())!;
    const outside = join(base, 'outside.bin');
    writeFileSync(outside, 'not a cache, and not to be written\n');
    rmSync(file);
    symlinkSync(outside, file);
    expect(applyPatch()).toEqual(SUCCESS);
    expect(lstatSync(file).isFile()).toBe(true);
    expect(readFileSync(outside, 'utf8')).toBe('not a cache, and not to be written\n');
  });

  it('a cache others could write is not read, and none is written there', () => {
    if (process.platform === 'win32') return;
    applyPatch();
    const file = cacheFileIn(bundleCacheDir())!;
    // A valid cache, but writable by anyone: had it been used, it would not be rewritten.
    chmodSync(file, 0o666);
    const trustedIfRead = identity(file);
    expect(applyPatch()).toEqual(SUCCESS);
    expect(identity(file)).not.toBe(trustedIfRead);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A folder others can write is passed over for the user's own cache folder.
    rmSync(bundleCacheDir(), { recursive: true });
    mkdirSync(bundleCacheDir());
    chmodSync(bundleCacheDir(), 0o777);
    expect(applyPatch()).toEqual(SUCCESS);
    expect(readdirSync(bundleCacheDir())).toEqual([]);
    expect(cacheFileIn(userCacheDir())).not.toBeNull();
    expect(statSync(userCacheDir()).mode & 0o777).toBe(0o700);
  });

  it('when the bundle folder cannot hold a cache, the user cache folder does', () => {
    writeFileSync(bundleCacheDir(), 'a file where the folder would be\n');
    expect(applyPatch()).toEqual(SUCCESS);
    expect(cacheFileIn(userCacheDir())).not.toBeNull();
    expect(applyPatch()).toEqual(SUCCESS);
  });

  it('PATCHSMITH_COMPILE_CACHE=0 reads and writes no cache', () => {
    expect(applyPatch({ PATCHSMITH_COMPILE_CACHE: '0' })).toEqual(SUCCESS);
    expect(existsSync(bundleCacheDir())).toBe(false);
    expect(existsSync(userCacheDir())).toBe(false);
  });

  it('the key is the content: a bundle changed to the same length gets its own cache', () => {
    const source = readFileSync(join(pkg, 'dist', 'bundle', 'apply_patch.cjs'), 'utf8');
    expect(bundleHash(source)).toMatch(/^[0-9a-f]{32}$/);
    expect(
      bundleHash(`// patchsmith-bundle ${'0'.repeat(32)}\n${source.slice(source.indexOf('\n') + 1)}`),
    ).toBe('0'.repeat(32));
    // A bundle without the build's first line is run without a cache.
    expect(bundleHash(source.slice(source.indexOf('\n') + 1))).toBeNull();
  });

  it('the bundles are pure ASCII (a single other character makes V8 hold the source as two-byte)', () => {
    for (const name of ['apply_patch.cjs', 'patchsmith.cjs']) {
      const bytes = readFileSync(join(pkg, 'dist', 'bundle', name));
      expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1);
    }
  });
});

// Linux lists a process's threads in /proc; elsewhere the pool's size cannot be seen from outside.
describe.skipIf(process.platform !== 'linux')('the bins size the thread pool for the transaction', () => {
  /** The threads of a fresh Node process after `sizeThreadPool()` and one queued call, and its env after. */
  function threadsAfterSizing(env: NodeJS.ProcessEnv) {
    const script = `
      const fs = require('node:fs');
      require(${JSON.stringify(join(pkg, 'bin', 'launch.cjs'))}).sizeThreadPool();
      fs.stat(__filename, () => {
        const threads = fs.readdirSync('/proc/self/task').length;
        process.stdout.write(JSON.stringify({ threads, pool: process.env.UV_THREADPOOL_SIZE ?? null }));
      });`;
    const { UV_THREADPOOL_SIZE: _, ...rest } = process.env;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...rest, ...env } });
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout) as { threads: number; pool: string | null };
  }

  it('16 threads unless the user chose a size, and no child inherits the setting', () => {
    const chosen = threadsAfterSizing({ UV_THREADPOOL_SIZE: '1' });
    const sized = threadsAfterSizing({});
    expect(chosen.pool).toBe('1');
    expect(sized.pool).toBeNull();
    expect(sized.threads - chosen.threads).toBe(15);
  });
});

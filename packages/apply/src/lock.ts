import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { PatchsmithError } from '@patchsmith/grammar';
import { openRoot, type RootContext } from './context.js';
import { defaultFs, errnoOf, isMissing, type TransactionFs } from './fs.js';
import { asPatchsmithError, IoFailure, io } from './io-failure.js';

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
const POLL_MS = 25;
/** A lock file that cannot be parsed is being written, unless it is older than this. */
const UNREADABLE_LOCK_GRACE_MS = 2_000;

/** Proof that this process holds a root's lock; pass it on to calls made while holding it. */
export interface RootLock {
  readonly stateDir: string;
  readonly lockPath: string;
  readonly token: string;
}

export interface LockOptions {
  fs?: TransactionFs;
  /** How long to wait for another apply to finish before failing with `BUSY` (default 10 s). */
  lockTimeoutMs?: number;
}

/** What a lock file holds. */
interface LockInfo {
  pid: number;
  host: string;
  token: string;
  time: string;
}

/** The tokens of the locks this process holds right now. */
const heldTokens = new Set<string>();

function parseLock(text: string): LockInfo | null {
  try {
    const info = JSON.parse(text) as Partial<LockInfo>;
    if (typeof info.pid !== 'number' || typeof info.token !== 'string' || typeof info.host !== 'string')
      return null;
    return info as LockInfo;
  } catch {
    return null;
  }
}

// The process exists (EPERM: it does, but belongs to someone else).
function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoOf(error) === 'EPERM';
  }
}

// A lock whose owner is gone: a dead pid on this host, or this very process without holding it
// (its pid was reused, or an earlier call of ours died without releasing).
function isOwnerGone(info: LockInfo): boolean {
  if (info.host !== hostname()) return false;
  if (info.pid === process.pid) return !heldTokens.has(info.token);
  return !isProcessAlive(info.pid);
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Creates the lock file with `wx`; false when another lock file is there. */
async function tryCreateLock(fs: TransactionFs, lockPath: string, info: LockInfo): Promise<boolean> {
  let handle: Awaited<ReturnType<TransactionFs['open']>>;
  try {
    handle = await fs.open(lockPath, 'wx', 0o644);
  } catch (error) {
    if (errnoOf(error) === 'EEXIST') return false;
    // Another process's release removed the (then empty) state dir between our mkdir and open.
    if (errnoOf(error) === 'ENOENT') {
      await io('mkdir', dirname(lockPath), () => fs.mkdir(dirname(lockPath), { recursive: true }));
      return tryCreateLock(fs, lockPath, info);
    }
    throw new IoFailure('open', lockPath, error);
  }
  try {
    await io('writeFile', lockPath, () => handle.writeFile(JSON.stringify(info)));
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.unlink(lockPath).catch(() => {});
    throw error;
  }
  await handle.close().catch(() => {});
  return true;
}

/** The lock file's text if it has an owner that is gone (so it may be broken), else null. */
async function staleLockText(fs: TransactionFs, lockPath: string): Promise<string | null> {
  let text: string;
  let age: number;
  try {
    text = await fs.readFile(lockPath, 'utf8');
    age = Date.now() - (await fs.lstat(lockPath)).mtimeMs;
  } catch (error) {
    if (isMissing(error)) return null;
    throw new IoFailure('readFile', lockPath, error);
  }
  const info = parseLock(text);
  if (info === null) return age > UNREADABLE_LOCK_GRACE_MS ? text : null;
  return isOwnerGone(info) ? text : null;
}

/**
 * Breaks a stale lock without racing another breaker: the lock is renamed aside (atomic, only one
 * wins), and put back if what was moved turns out not to be the stale lock that was judged.
 */
async function breakStaleLock(fs: TransactionFs, lockPath: string, judged: string): Promise<void> {
  const aside = `${lockPath}.stale-${randomBytes(6).toString('hex')}`;
  try {
    await fs.rename(lockPath, aside);
  } catch (error) {
    if (isMissing(error)) return;
    throw new IoFailure('rename', lockPath, error);
  }
  const moved = await fs.readFile(aside, 'utf8').catch(() => judged);
  if (moved !== judged) await fs.link(aside, lockPath).catch(() => {});
  await io('unlink', aside, () => fs.unlink(aside));
}

/**
 * Takes the root's lock (SPEC §4.6): a `lock` file in the state dir, created with `wx`, holding
 * pid, host, a token and the time. A lock whose owner died is broken; a live one is waited for,
 * polling, up to `timeoutMs`, then `BUSY` is thrown.
 */
export async function acquireLock(ctx: RootContext, timeoutMs: number): Promise<RootLock> {
  const { fs, lockPath, stateDir } = ctx;
  await io('mkdir', stateDir, () => fs.mkdir(stateDir, { recursive: true }));
  const token = randomBytes(12).toString('hex');
  const info: LockInfo = { pid: process.pid, host: hostname(), token, time: new Date().toISOString() };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Registered first so that a lock file of ours is never judged stale by this process.
    heldTokens.add(token);
    try {
      if (await tryCreateLock(fs, lockPath, info)) return { stateDir, lockPath, token };
    } catch (error) {
      heldTokens.delete(token);
      throw error;
    }
    heldTokens.delete(token);
    const stale = await staleLockText(fs, lockPath);
    if (stale !== null) {
      await breakStaleLock(fs, lockPath, stale);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new PatchsmithError(
        'BUSY',
        `another patchsmith apply holds the lock of this root (${lockPath})`,
        {
          path: lockPath,
        },
      );
    }
    await sleep(POLL_MS + Math.floor(Math.random() * POLL_MS));
  }
}

/** Releases a lock taken by `acquireLock`: forgets the token, then removes the file if still ours. */
export async function releaseLock(fs: TransactionFs, lock: RootLock): Promise<void> {
  heldTokens.delete(lock.token);
  const text = await fs.readFile(lock.lockPath, 'utf8').catch(() => null);
  if (text === null || parseLock(text)?.token !== lock.token) return;
  await io('unlink', lock.lockPath, () => fs.unlink(lock.lockPath));
  // Leave nothing behind in a plain folder (SPEC §7): an empty `.patchsmith/` goes with the lock.
  // It fails harmlessly while snapshots or a journal live there.
  await fs.rmdir(lock.stateDir).catch(() => {});
}

/** The lock is one this process holds now. */
export function holdsLock(lock: RootLock): boolean {
  return heldTokens.has(lock.token);
}

/**
 * Runs `fn` while holding the root's lock, so a caller can keep other applies out across several
 * steps (snapshot, then apply): pass the `RootLock` it receives to `applyPlan` / `recoverTransaction`
 * as `lock`. Throws `BUSY` when the lock cannot be had in time, `IO_ERROR` when it cannot be created.
 */
export async function withRootLock<T>(
  root: string,
  fn: (lock: RootLock) => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const fs = options.fs ?? defaultFs;
  let lock: RootLock;
  try {
    const ctx = await openRoot(root, fs);
    lock = await acquireLock(ctx, options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
  } catch (error) {
    throw asPatchsmithError(error);
  }
  try {
    return await fn(lock);
  } finally {
    await releaseLock(fs, lock).catch(() => {});
  }
}

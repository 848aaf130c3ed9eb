import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { hashBytes, PatchsmithError, randomHex } from '@patchsmith/core';
import { openRoot, type RootContext } from './context.js';
import { defaultFs, errnoOf, isMissing, lstatOrNull, type TransactionFs } from './fs.js';
import { asPatchsmithError, displayPath, IoFailure, io } from './io-failure.js';
import { unlinkIfPresent } from './journal.js';
import { type LockInfo, MAX_LOCK_BYTES, parseLockFile } from './lock-file.js';
import { ownProcessStart, processStart } from './process-start.js';
import { checkStateDir } from './state-folders.js';
import { stateInvalid } from './state-invalid.js';

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
const POLL_MS = 25;
/** A lock file that is not a lock is being written, unless it has not changed for this long: then it is stale. */
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

/** The tokens of the locks this process holds right now. */
const heldTokens = new Set<string>();

/** A lock file (or a breaker's marker) as found: who holds it, and whether its holder is gone. */
interface LockState {
  /** Names this generation of the file: its token, or for a file that is not a lock, its content and age. */
  key: string;
  info: LockInfo | null;
  stale: boolean;
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

/**
 * The holder is gone: a dead pid on this host, a live pid that started at another time than the
 * holder did (the pid was reused), or this very process without holding the token. A lock of
 * another host cannot be judged, and is never broken.
 */
async function isOwnerGone(info: LockInfo): Promise<boolean> {
  if (info.host !== hostname()) return false;
  if (info.pid === process.pid) return !heldTokens.has(info.token);
  if (!isProcessAlive(info.pid)) return true;
  if (info.start === null) return false;
  const start = await processStart(info.pid);
  return start !== null && start !== info.start;
}

/** What the lock file (or marker) at `path` is now, or null when there is none. */
async function inspectLock(fs: TransactionFs, path: string): Promise<LockState | null> {
  const stats = await io('lstat', path, () => lstatOrNull(fs, path));
  if (stats === null) return null;
  const aged = Date.now() - stats.mtimeMs > UNREADABLE_LOCK_GRACE_MS;
  // Never read a special file (a FIFO would block) or a huge one: it is not a lock.
  if (!stats.isFile() || stats.size > MAX_LOCK_BYTES) {
    return { key: `x${Math.floor(stats.mtimeMs)}-${stats.size}`, info: null, stale: aged };
  }
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw new IoFailure('readFile', path, error);
  }
  const info = parseLockFile(text);
  if (info === null) {
    return {
      key: `g${hashBytes(new TextEncoder().encode(text)).slice(0, 16)}-${Math.floor(stats.mtimeMs)}`,
      info,
      stale: aged,
    };
  }
  return { key: info.token, info, stale: await isOwnerGone(info) };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Creates the lock file (or a marker) with `wx`; false when one is there already. */
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

/**
 * Removes the stale lock file (or marker) `path` of generation `key`, race-free: only the one
 * process that creates the marker `<state dir>/lock.break-<key>` (with `wx`) may remove that
 * generation, and it re-reads the file under the marker first. The generation can only go away
 * through its holder (gone) or that marker's owner, so the file it removes is the one it judged;
 * a waiter that comes late finds another generation and leaves it alone. A marker whose own
 * holder died is broken the same way.
 */
async function breakStaleLock(fs: TransactionFs, path: string, key: string, me: LockInfo): Promise<void> {
  const marker = join(dirname(path), `lock.break-${key}`);
  const mine: LockInfo = { ...me, token: randomHex(24) };
  heldTokens.add(mine.token);
  try {
    if (!(await tryCreateLock(fs, marker, mine))) {
      const other = await inspectLock(fs, marker);
      if (other?.stale) await breakStaleLock(fs, marker, other.key, me);
      return;
    }
    try {
      const now = await inspectLock(fs, path);
      if (now !== null && now.key === key && now.stale) await unlinkIfPresent(fs, path);
    } finally {
      await unlinkIfPresent(fs, marker);
    }
  } finally {
    heldTokens.delete(mine.token);
  }
}

/** `BUSY`, naming the holder and saying how to clear a lock that is not patchsmith's any more. */
function busy(ctx: RootContext, state: LockState | null): PatchsmithError {
  const shown = displayPath(ctx.realRoot, ctx.lockPath);
  const clear = `if no patchsmith is running for this root, remove ${shown}`;
  const info = state?.info;
  let holder: string;
  if (state === null) holder = 'another patchsmith apply holds the lock of this root';
  else if (!info) {
    holder = `the lock file ${shown} is not a patchsmith lock (it is taken as stale ${UNREADABLE_LOCK_GRACE_MS / 1000} s after its last change)`;
  } else {
    const foreign =
      info.host === hostname() ? '' : ' (another host: patchsmith cannot tell whether it still runs)';
    holder = `the lock of this root is held by pid ${info.pid} on host ${info.host}${foreign}, since ${info.time}`;
  }
  return new PatchsmithError('BUSY', `${holder}; ${clear}`, { path: shown });
}

/**
 * Takes the root's lock (SPEC §4.6): a `lock` file in the state dir, created with `wx`, holding
 * pid, host, the process's start identity, a token and the time. A lock whose holder is gone is
 * broken (race-free, `breakStaleLock`); a live one is waited for, polling, up to `timeoutMs`, then
 * `BUSY` names its holder. A state dir that is not a real folder is `STATE_INVALID`.
 */
export async function acquireLock(ctx: RootContext, timeoutMs: number): Promise<RootLock> {
  const { fs, lockPath, stateDir } = ctx;
  const existed = await checkStateDir(ctx);
  if ((await io('lstat', lockPath, () => lstatOrNull(fs, lockPath)))?.isDirectory()) {
    throw stateInvalid(ctx, 'the lock file', lockPath, 'it is a folder', 'remove it by hand');
  }
  await io('mkdir', stateDir, () => fs.mkdir(stateDir, { recursive: true }));
  try {
    return await takeLock(ctx, timeoutMs);
  } catch (error) {
    // Leave no empty state dir behind (SPEC §7) when the lock could not be had.
    if (!existed) await fs.rmdir(stateDir).catch(() => {});
    throw error;
  }
}

/** The polling loop of `acquireLock`, once the state dir is there. */
async function takeLock(ctx: RootContext, timeoutMs: number): Promise<RootLock> {
  const { fs, lockPath, stateDir } = ctx;
  const token = randomHex(24);
  const info: LockInfo = {
    pid: process.pid,
    host: hostname(),
    token,
    time: new Date().toISOString(),
    start: await ownProcessStart(),
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Registered first so that a lock file of ours is never judged stale by this process.
    heldTokens.add(token);
    try {
      if (await tryCreateLock(fs, lockPath, info)) {
        const lock: RootLock = { stateDir, lockPath, token };
        lockContexts.set(lock, ctx);
        return lock;
      }
    } catch (error) {
      heldTokens.delete(token);
      throw error;
    }
    heldTokens.delete(token);
    const state = await inspectLock(fs, lockPath);
    if (state?.stale) {
      await breakStaleLock(fs, lockPath, state.key, info);
      continue;
    }
    if (Date.now() >= deadline) throw busy(ctx, state);
    await sleep(POLL_MS + Math.floor(Math.random() * POLL_MS));
  }
}

/** The root context each lock was taken in (a side table, so `RootLock` stays plain). */
const lockContexts = new WeakMap<RootLock, RootContext>();

/**
 * The root's context for a call made under `lock`: the one the lock was taken in, when it was
 * taken for `root` through `fs` (the call journals where the lock lives, and does not resolve the
 * root again), else the root opened afresh.
 */
export async function openLockedRoot(
  root: string,
  fs: TransactionFs,
  lock: RootLock | undefined,
): Promise<RootContext> {
  const ctx = lock === undefined ? undefined : lockContexts.get(lock);
  if (ctx !== undefined && ctx.fs === fs && ctx.root === resolve(root)) return ctx;
  return openRoot(root, fs);
}

/** Releases a lock taken by `acquireLock`: removes the file if still ours, then forgets the token. */
export async function releaseLock(fs: TransactionFs, lock: RootLock): Promise<void> {
  try {
    const text = await fs.readFile(lock.lockPath, 'utf8').catch(() => null);
    if (text === null || parseLockFile(text)?.token !== lock.token) return;
    // The token stays held until the file is gone, so no one in this process takes it for stale meanwhile.
    await io('unlink', lock.lockPath, () => fs.unlink(lock.lockPath));
  } finally {
    heldTokens.delete(lock.token);
  }
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

/**
 * `BUSY` naming the live holder of the root's lock (an apply or undo running now), or null when
 * no one holds it (no lock file, or one whose holder is gone). Takes nothing; waits only for a lock
 * file that does not parse to age into staleness (up to 4 s), as a killed apply can leave one.
 * For `recover`, which must not say "nothing to recover" while another process is mid-apply.
 */
export async function liveLockHolder(
  root: string,
  options: Pick<LockOptions, 'fs'> = {},
): Promise<PatchsmithError | null> {
  try {
    const ctx = await openRoot(root, options.fs ?? defaultFs);
    let state = await inspectLock(ctx.fs, ctx.lockPath);
    // A lock file that does not parse may be one whose writer was killed between creating it and
    // writing it: wait until it parses, goes or ages into staleness instead of calling it busy.
    const deadline = Date.now() + 2 * UNREADABLE_LOCK_GRACE_MS;
    while (state !== null && state.info === null && !state.stale && Date.now() < deadline) {
      await sleep(POLL_MS);
      state = await inspectLock(ctx.fs, ctx.lockPath);
    }
    return state === null || state.stale ? null : busy(ctx, state);
  } catch (error) {
    throw asPatchsmithError(error);
  }
}

import * as nodeFs from 'node:fs/promises';
import type { TransactionFileHandle, TransactionFs } from '../fs.js';

/** Thrown by a `FaultyFs` from the moment it was "killed": the process is gone, nothing more happens. */
export class Killed extends Error {
  constructor() {
    super('killed');
    this.name = 'Killed';
  }
}

export interface FaultPlan {
  /** 1-based index of the mutating call that fails (with EIO), or kills the process (`kill`). */
  failAt?: number;
  kill?: boolean;
  /** Really fsync (default false: power loss is not simulated, and fsync only costs time here; the call still counts and can fail). */
  realSync?: boolean;
  /** Runs before every mutating call (e.g. to hold a call at a gate). */
  before?: (call: string, path: string) => Promise<void>;
}

export interface FaultyFs {
  fs: TransactionFs;
  /** Mutating calls that completed, as `call path`, in order. */
  log: string[];
  /** Mutating calls that completed before the injected failure (all of them when none was injected). */
  beforeFault(): string[];
  /** How many mutating calls were attempted. */
  count(): number;
  killed(): boolean;
}

// open flags that create or change a file.
const isWriteFlag = (flags: string) => /[wax+]/.test(flags);

function eio(call: string, path: string): Error {
  return Object.assign(new Error(`EIO: injected failure, ${call} '${path}'`), { code: 'EIO' });
}

/**
 * Wraps node:fs/promises, counting mutating calls (open for writing, the handle's writeFile /
 * chmod / sync, rename, unlink, mkdir, rmdir, chmod, link, copyFile, symlink): the `failAt`-th
 * one fails with EIO, or, with `kill`, it and every later call of any kind throw `Killed`.
 */
export function faultyFs(plan: FaultPlan = {}, base: TransactionFs = nodeFs): FaultyFs {
  let attempts = 0;
  let dead = false;
  let faultAt = -1;
  const log: string[] = [];

  function alive() {
    if (dead) throw new Killed();
  }

  async function mutate<T>(call: string, path: string, run: () => Promise<T>): Promise<T> {
    alive();
    await plan.before?.(call, path);
    // Calls run concurrently: one that was waiting while another killed the process never happens.
    alive();
    attempts += 1;
    if (attempts === plan.failAt) {
      faultAt = log.length;
      if (plan.kill) {
        dead = true;
        throw new Killed();
      }
      throw eio(call, path);
    }
    const result = await run();
    log.push(`${call} ${path}`);
    return result;
  }

  async function read<T>(run: () => Promise<T>): Promise<T> {
    alive();
    return run();
  }

  function wrapHandle(handle: TransactionFileHandle, path: string): TransactionFileHandle {
    return {
      writeFile: (data) => mutate('write', path, () => handle.writeFile(data)),
      chmod: (mode) => mutate('fchmod', path, () => handle.chmod(mode)),
      sync: () => mutate('fsync', path, () => (plan.realSync ? handle.sync() : Promise.resolve())),
      close: () => handle.close(),
    };
  }

  const fs: TransactionFs = {
    stat: (p) => read(() => base.stat(p)),
    lstat: (p) => read(() => base.lstat(p)),
    realpath: (p) => read(() => base.realpath(p)),
    readlink: (p) => read(() => base.readlink(p)),
    readdir: (p) => read(() => base.readdir(p)),
    readFile: ((p: string, encoding?: 'utf8') =>
      read<Uint8Array | string>(() =>
        encoding ? base.readFile(p, encoding) : base.readFile(p),
      )) as TransactionFs['readFile'],
    open: async (p, flags, mode) => {
      if (!isWriteFlag(flags)) return wrapHandle(await read(() => base.open(p, flags, mode)), p);
      return wrapHandle(await mutate('open', p, () => base.open(p, flags, mode)), p);
    },
    rename: (from, to) => mutate('rename', `${from} -> ${to}`, () => base.rename(from, to)),
    unlink: (p) => mutate('unlink', p, () => base.unlink(p)),
    mkdir: (p, options) => mutate('mkdir', p, () => base.mkdir(p, options)),
    rmdir: (p) => mutate('rmdir', p, () => base.rmdir(p)),
    chmod: (p, mode) => mutate('chmod', p, () => base.chmod(p, mode)),
    link: (from, to) => mutate('link', `${from} -> ${to}`, () => base.link(from, to)),
    copyFile: (from, to) => mutate('copyFile', `${from} -> ${to}`, () => base.copyFile(from, to)),
    symlink: (target, p) => mutate('symlink', p, () => base.symlink(target, p)),
  };
  const beforeFault = () => (faultAt < 0 ? [...log] : log.slice(0, faultAt));
  return { fs, log, beforeFault, count: () => attempts, killed: () => dead };
}

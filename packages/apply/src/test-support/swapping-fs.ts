import * as nodeFs from 'node:fs/promises';
import type { TransactionFileHandle, TransactionFs } from '../fs.js';

export interface SwappingFs {
  fs: TransactionFs;
  /** Calls made (of any kind, the handles' included). */
  calls(): number;
  swapped(): boolean;
}

/**
 * Wraps node:fs/promises and runs `swap` (say, a folder exchanged for a symlink to outside the
 * root) right before the `at`-th call of any kind, as an attacker racing the transaction would.
 */
export function swappingFs(at: number, swap: () => Promise<void>, base: TransactionFs = nodeFs): SwappingFs {
  let calls = 0;
  let swapped = false;
  async function call<T>(run: () => Promise<T>): Promise<T> {
    calls += 1;
    if (calls === at) {
      swapped = true;
      await swap();
    }
    return run();
  }
  const wrapHandle = (handle: TransactionFileHandle): TransactionFileHandle => ({
    writeFile: (data) => call(() => handle.writeFile(data)),
    chmod: (mode) => call(() => handle.chmod(mode)),
    sync: () => call(() => handle.sync()),
    close: () => call(() => handle.close()),
  });
  const fs: TransactionFs = {
    stat: (p) => call(() => base.stat(p)),
    lstat: (p) => call(() => base.lstat(p)),
    realpath: (p) => call(() => base.realpath(p)),
    readlink: (p) => call(() => base.readlink(p)),
    readdir: (p) => call(() => base.readdir(p)),
    readFile: ((p: string, encoding?: 'utf8') =>
      call<Uint8Array | string>(() =>
        encoding ? base.readFile(p, encoding) : base.readFile(p),
      )) as TransactionFs['readFile'],
    open: async (p, flags, mode) => wrapHandle(await call(() => base.open(p, flags, mode))),
    rename: (from, to) => call(() => base.rename(from, to)),
    unlink: (p) => call(() => base.unlink(p)),
    mkdir: (p, options) => call(() => base.mkdir(p, options)),
    rmdir: (p) => call(() => base.rmdir(p)),
    chmod: (p, mode) => call(() => base.chmod(p, mode)),
    link: (from, to) => call(() => base.link(from, to)),
    copyFile: (from, to) => call(() => base.copyFile(from, to)),
    symlink: (target, p) => call(() => base.symlink(target, p)),
  };
  return { fs, calls: () => calls, swapped: () => swapped };
}

import * as nodeFs from 'node:fs/promises';
import type { TransactionFileHandle, TransactionFs } from '../fs.js';

/** One mutating call as a held fs saw it start. */
export interface CallStart {
  call: string;
  path: string;
  /** Mutating calls in flight (this one left out) when it started, by `call path`. */
  inFlight: string[];
}

export interface HeldFs {
  fs: TransactionFs;
  starts: CallStart[];
  /** Picked calls in flight when the failing one failed (itself left out). */
  heldAtFailure(): number;
  /** Mutating calls that finished (either way) after the failure. */
  endedAfterFailure(): number;
}

/**
 * Wraps node:fs/promises so a batch of concurrent calls is in flight when one fails: the calls that
 * `pick` selects wait until `hold` of them have arrived; the `hold`-th fails with EIO while the
 * others are still waiting, and those go on (and succeed) shortly after.
 * Every mutating call is recorded as it starts, with the calls in flight at that moment.
 */
export function heldFs(pick: (call: string, path: string) => boolean, hold: number): HeldFs {
  const inFlight = new Set<string>();
  const starts: CallStart[] = [];
  const waiting: (() => void)[] = [];
  let arrived = 0;
  let failed = false;
  let heldAtFailure = -1;
  let endedAfterFailure = 0;
  let serial = 0;

  const releaseAll = () => {
    for (const release of waiting.splice(0)) release();
  };

  async function mutate<T>(call: string, path: string, run: () => Promise<T>): Promise<T> {
    const id = `${call} ${path} #${++serial}`;
    starts.push({ call, path, inFlight: [...inFlight] });
    inFlight.add(id);
    try {
      if (pick(call, path) && !failed) {
        arrived += 1;
        if (arrived === hold) {
          failed = true;
          heldAtFailure = waiting.length;
          // Released a little later, not on the next turn: the failing task still closes its file
          // first, and a rollback that did not wait for them would have started by then.
          setTimeout(releaseAll, 25);
          throw Object.assign(new Error(`EIO: injected failure, ${call} '${path}'`), { code: 'EIO' });
        }
        // A safety net: an implementation that never has `hold` calls in flight does not hang.
        const fallback = setTimeout(releaseAll, 2000);
        await new Promise<void>((resolve) => waiting.push(resolve));
        clearTimeout(fallback);
      }
      return await run();
    } finally {
      inFlight.delete(id);
      if (failed) endedAfterFailure += 1;
    }
  }

  const wrapHandle = (handle: TransactionFileHandle, path: string): TransactionFileHandle => ({
    writeFile: (data) => mutate('write', path, () => handle.writeFile(data)),
    chmod: (mode) => mutate('fchmod', path, () => handle.chmod(mode)),
    // Counted and held like the others, but not really run: power loss is not simulated here.
    sync: () => mutate('fsync', path, async () => {}),
    close: () => handle.close(),
  });

  const fs: TransactionFs = {
    ...nodeFs,
    open: async (p, flags, mode) => {
      if (!/[wax+]/.test(flags)) return wrapHandle(await nodeFs.open(p, flags, mode), p);
      return wrapHandle(await mutate('open', p, () => nodeFs.open(p, flags, mode)), p);
    },
    rename: (from, to) => mutate('rename', `${from} -> ${to}`, () => nodeFs.rename(from, to)),
    unlink: (p) => mutate('unlink', p, () => nodeFs.unlink(p)),
    mkdir: (p, options) => mutate('mkdir', p, () => nodeFs.mkdir(p, options)),
    rmdir: (p) => mutate('rmdir', p, () => nodeFs.rmdir(p)),
    chmod: (p, mode) => mutate('chmod', p, () => nodeFs.chmod(p, mode)),
    link: (from, to) => mutate('link', `${from} -> ${to}`, () => nodeFs.link(from, to)),
    copyFile: (from, to) => mutate('copyFile', `${from} -> ${to}`, () => nodeFs.copyFile(from, to)),
    symlink: (target, p) => mutate('symlink', p, () => nodeFs.symlink(target, p)),
  };
  return {
    fs,
    starts,
    heldAtFailure: () => heldAtFailure,
    endedAfterFailure: () => endedAfterFailure,
  };
}

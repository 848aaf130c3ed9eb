import * as nodeFs from 'node:fs';
import type { SnapshotFs } from '@patchsmith/snapshot';
import type { TransactionFs } from '../fs.js';

/** The calls that look at a file without changing it, which the read-once tests count. */
export const LOOKS = ['readFile', 'stat', 'lstat'] as const;
export type Look = (typeof LOOKS)[number];

export interface CountingFs {
  /** For the transaction and `readFiles`. */
  fs: TransactionFs;
  /** For `createSnapshot`: the same counts. */
  snapshotFs: SnapshotFs;
  /** How often each look was made at `path` (absolute), through either fs. */
  looksAt(path: string): Record<Look, number>;
  reset(): void;
}

/** node's fs, counting `readFile` / `stat` / `lstat` by path (the first argument). */
export function countingFs(): CountingFs {
  const counts = new Map<string, Record<Look, number>>();
  const looksAt = (path: string) => {
    let seen = counts.get(path);
    if (seen === undefined) {
      seen = { readFile: 0, stat: 0, lstat: 0 };
      counts.set(path, seen);
    }
    return seen;
  };
  const counted = <T extends object>(base: T): T => {
    const wrapped: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const look of LOOKS) {
      const real = (base as Record<string, (...args: unknown[]) => Promise<unknown>>)[look]!;
      wrapped[look] = (path: string, ...rest: unknown[]) => {
        looksAt(String(path))[look] += 1;
        return real.call(base, path, ...rest);
      };
    }
    return wrapped as T;
  };
  return {
    fs: counted(nodeFs.promises) as unknown as TransactionFs,
    snapshotFs: { promises: counted(nodeFs.promises) } as unknown as SnapshotFs,
    looksAt: (path) => ({ ...looksAt(path) }),
    reset: () => counts.clear(),
  };
}

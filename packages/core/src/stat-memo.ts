import type { BigIntStats } from 'node:fs';
import { stat } from 'node:fs/promises';

/**
 * A file changed this recently may change again within the same timestamp tick and leave stat
 * as it was (git's "racy clean" entries); what was read of it is not kept. 2 s covers the
 * coarsest file timestamps in use (FAT); ext4, APFS and NTFS are far finer.
 */
export const RACY_MS = 2_000;

/** Files remembered at most; a host serving many roots forgets the least recently used. */
const MAX_ENTRIES = 32;

/** What stat says that any change to a file changes: which file (device, inode), its size, and its times in ns. */
function identityOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/** Changed (content or metadata) less than RACY_MS before `nowMs`, or in the future of this clock. */
function isRacy(stats: BigIntStats, nowMs: number): boolean {
  const changedMs = Number((stats.ctimeNs > stats.mtimeNs ? stats.ctimeNs : stats.mtimeNs) / 1_000_000n);
  return changedMs > nowMs - RACY_MS;
}

/** Nothing at the name (a folder on the way that is not one is the reader's error to report). */
const isAbsent = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

async function statOrNull(path: string): Promise<BigIntStats | null> {
  try {
    return await stat(path, { bigint: true });
  } catch (error) {
    if (isAbsent(error)) return null;
    throw error;
  }
}

const remembered = new Map<string, { identity: string; value: unknown }>();

function remember(key: string, identity: string, value: unknown): void {
  remembered.delete(key);
  remembered.set(key, { identity, value: structuredClone(value) });
  for (const oldest of remembered.keys()) {
    if (remembered.size <= MAX_ENTRIES) break;
    remembered.delete(oldest);
  }
}

export interface StatMemoRead<T> {
  /** Reads and interprets the file (called when nothing valid is remembered). */
  read: () => Promise<T>;
  /** The value when nothing is at `path`. */
  absent: () => T;
  /** What the value is remembered under, when `read` depends on more than the path. Default: the path. */
  key?: string;
}

/**
 * `read()` of the file at `path` (absolute), remembered while stat says it is the same file,
 * unchanged: one stat instead of reading and parsing it again, for a process that reads it at
 * every call (a warm host reads `.patchsmith.json` twice per edit). Kept only when a stat before
 * and after the read agree and the file is not racy, so a change is always seen: a new inode, a
 * write (mtime, ctime and usually size), a `touch` back to an old mtime (ctime cannot be set).
 * Values are cloned in and out: a caller that changes its copy changes nothing here. A stat that
 * fails otherwise than "absent" falls back to `read()`, which reports it as it would.
 */
export async function memoByStat<T>(path: string, { read, absent, key = path }: StatMemoRead<T>): Promise<T> {
  let before: BigIntStats | null;
  try {
    before = await statOrNull(path);
  } catch {
    remembered.delete(key);
    return read();
  }
  if (before === null) {
    remembered.delete(key);
    return absent();
  }
  const identity = identityOf(before);
  const known = remembered.get(key);
  if (known?.identity === identity) return structuredClone(known.value) as T;
  remembered.delete(key);
  const value = await read();
  const after = await statOrNull(path).catch(() => null);
  if (before.isFile() && after !== null && identityOf(after) === identity && !isRacy(after, Date.now()))
    remember(key, identity, value);
  return value;
}

/** Forgets every remembered file (tests). */
export function forgetStatMemo(): void {
  remembered.clear();
}

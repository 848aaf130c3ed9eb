/** What a lock file holds: who holds the root's lock, and since when. */
export interface LockInfo {
  pid: number;
  host: string;
  /** Unique to one acquisition; names the markers of whoever breaks it. */
  token: string;
  /** When the lock was taken (ISO 8601). */
  time: string;
  /** The holder's process start identity (`processStart`), null when it could not be told. */
  start: string | null;
}

export const LOCK_TOKEN = /^[0-9a-f]{24}$/;
const LOCK_KEYS = ['pid', 'host', 'token', 'time', 'start'];
/** A lock file is a few hundred bytes; a bigger one is not read. */
export const MAX_LOCK_BYTES = 4096;

// A host name as hostname() answers it: printable, of a sensible length.
const isHostName = (value: unknown) => typeof value === 'string' && /^[\x21-\x7e]{1,255}$/.test(value);
// A pid as the OS gives it.
const isPid = (value: unknown) =>
  Number.isInteger(value) && (value as number) > 0 && (value as number) < 2 ** 31;
// A time this version writes: an ISO 8601 string that parses.
const isTime = (value: unknown) =>
  typeof value === 'string' && value.length <= 40 && !Number.isNaN(Date.parse(value));
// A start identity, or null (unknown).
const isStart = (value: unknown) =>
  value === null || (typeof value === 'string' && /^[\x20-\x7e]{1,80}$/.test(value));

/**
 * The lock file's content when it is exactly what this version writes (a lock written before
 * start times were recorded has no `start`), else null: the file is input like any other, and its
 * token is used in a file name only once it has passed.
 */
export function parseLockFile(text: string): LockInfo | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const info: Record<string, unknown> = { start: null, ...value };
  if (Object.keys(info).some((key) => !LOCK_KEYS.includes(key))) return null;
  const fits =
    isPid(info.pid) &&
    isHostName(info.host) &&
    typeof info.token === 'string' &&
    LOCK_TOKEN.test(info.token) &&
    isTime(info.time) &&
    isStart(info.start);
  return fits ? (info as unknown as LockInfo) : null;
}

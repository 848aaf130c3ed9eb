import { readFileSync } from 'node:fs';

// /proc is in memory: a synchronous read never waits for a disk, and spares the one-shot CLI
// (whose tree calls are synchronous too) the thread-pool round trips it would make only for this.
const readProc = async (path: string) => readFileSync(path, 'utf8');

/** How long `ps` may take to answer before the start time counts as unknown. */
const PS_TIMEOUT_MS = 2_000;

let bootTime: Promise<string | null> | undefined;

/** Linux's boot time (`btime` of /proc/stat), so start ticks from different boots never compare equal. */
function linuxBootTime(): Promise<string | null> {
  bootTime ??= readProc('/proc/stat').then(
    (text) => /^btime (\d+)$/m.exec(text)?.[1] ?? null,
    () => null,
  );
  return bootTime;
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); the name in field 2 may hold spaces and parentheses. */
async function linuxStart(pid: number): Promise<string | null> {
  let text: string;
  try {
    text = await readProc(`/proc/${pid}/stat`);
  } catch {
    return null;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // Fields from 3 on: field 22 is at index 19.
  const ticks = fields[19];
  const boot = await linuxBootTime();
  return ticks !== undefined && /^\d+$/.test(ticks) && boot !== null ? `linux:${boot}:${ticks}` : null;
}

/** `ps -o lstart=` (macOS, the BSDs): the start time to the second. */
async function psStart(pid: number): Promise<string | null> {
  // Loaded here, not at the top: node:child_process costs ~2 ms of every start, and Linux never needs it.
  const { execFile } = await import('node:child_process');
  return new Promise((done) => {
    execFile('ps', ['-o', 'lstart=', '-p', String(pid)], { timeout: PS_TIMEOUT_MS }, (error, stdout) => {
      const start = String(stdout ?? '').trim();
      done(error || start === '' ? null : `ps:${start}`);
    });
  });
}

/**
 * What identifies the start of process `pid`, or null when it cannot be told (no such process,
 * no /proc and no `ps`, Windows). Two different processes that held the same pid answer different
 * values, so a lock of a dead process is not taken for the lock of the one that reused its pid.
 */
export async function processStart(pid: number): Promise<string | null> {
  if (process.platform === 'linux') return linuxStart(pid);
  if (process.platform === 'win32') return null;
  return psStart(pid);
}

let ownStart: Promise<string | null> | undefined;

/** This process's start identity, looked up once. */
export function ownProcessStart(): Promise<string | null> {
  ownStart ??= processStart(process.pid);
  return ownStart;
}

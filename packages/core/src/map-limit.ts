/**
 * How many independent file-system calls the transaction keeps in flight. Each call is a round
 * trip to libuv's thread pool; awaiting them one by one leaves the process idle most of the time,
 * while a few dozen at once keep the pool busy without holding many file descriptors open.
 */
export const IO_CONCURRENCY = 32;

/**
 * Runs `work` on every item with at most `limit` calls in flight, and answers the results in the
 * items' order. After a failure no new call starts, and the promise rejects (with the first failure
 * to happen) only once every call already in flight has settled: whoever handles the failure (a
 * rollback) never races a call that is still running.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  let failure: unknown;
  async function worker(): Promise<void> {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T, index);
      } catch (error) {
        if (!failed) [failed, failure] = [true, error];
      }
    }
  }
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  // The workers never reject, so this waits for every call in flight to settle.
  await Promise.allSettled(workers);
  if (failed) throw failure;
  return results;
}

/** Runs independent steps with the transaction's concurrency; see `mapLimit`. */
export async function runAll(steps: readonly (() => Promise<unknown>)[]): Promise<void> {
  await mapLimit(steps, IO_CONCURRENCY, (step) => step());
}

/** The folders grouped by depth (path segments), deepest group first or outermost first. */
export function byDepth(dirs: readonly string[], order: 'outermost-first' | 'deepest-first'): string[][] {
  const groups = new Map<number, string[]>();
  for (const dir of dirs) {
    const depth = dir.split(/[\\/]/).filter(Boolean).length;
    const group = groups.get(depth);
    if (group) group.push(dir);
    else groups.set(depth, [dir]);
  }
  const depths = [...groups.keys()].sort((a, b) => (order === 'outermost-first' ? a - b : b - a));
  return depths.map((depth) => groups.get(depth) ?? []);
}

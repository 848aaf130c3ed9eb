import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byDepth, mapLimit } from './map-limit.js';

interface Item {
  value: number;
  fails: boolean;
}

const itemsArb = fc.array(fc.record({ value: fc.integer(), fails: fc.boolean() }), {
  maxLength: 30,
});

/** Runs mapLimit with every call's completion order chosen by the scheduler, watching the calls. */
async function watch(scheduler: fc.Scheduler, items: Item[], limit: number) {
  const settle = scheduler.scheduleFunction(async (item: Item) => {
    if (item.fails) throw new Error(`failed ${item.value}`);
    return item.value * 2;
  });
  const seen = {
    inFlight: 0,
    maxInFlight: 0,
    started: [] as number[],
    startedAfterFailure: 0,
    failed: false,
  };
  const work = async (item: Item, index: number) => {
    seen.started.push(index);
    if (seen.failed) seen.startedAfterFailure += 1;
    seen.inFlight += 1;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
    try {
      return await settle(item);
    } catch (error) {
      seen.failed = true;
      throw error;
    } finally {
      seen.inFlight -= 1;
    }
  };
  const outcome = mapLimit(items, limit, work).then(
    (results) => ({ ok: true as const, results, inFlightAtEnd: seen.inFlight }),
    (error: Error) => ({ ok: false as const, error, inFlightAtEnd: seen.inFlight }),
  );
  return { seen, outcome: await scheduler.waitFor(outcome) };
}

describe('mapLimit', () => {
  it('answers every result in order, never more than the limit in flight, the pool kept full', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        itemsArb.map((items) => items.map((item) => ({ ...item, fails: false }))),
        fc.integer({ min: 1, max: 8 }),
        async (scheduler, items, limit) => {
          const { seen, outcome } = await watch(scheduler, items, limit);
          expect(outcome).toEqual({ ok: true, results: items.map((i) => i.value * 2), inFlightAtEnd: 0 });
          expect([...seen.started].sort((a, b) => a - b)).toEqual(items.map((_, index) => index));
          expect(seen.maxInFlight).toBe(Math.min(limit, items.length));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('on a failure: starts nothing more, and rejects with that failure only once every call has settled', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        itemsArb.filter((items) => items.some((item) => item.fails)),
        fc.integer({ min: 1, max: 8 }),
        async (scheduler, items, limit) => {
          const { seen, outcome } = await watch(scheduler, items, limit);
          expect(outcome.ok).toBe(false);
          if (outcome.ok) return;
          expect(outcome.inFlightAtEnd).toBe(0);
          expect(seen.startedAfterFailure).toBe(0);
          expect(seen.maxInFlight).toBeLessThanOrEqual(limit);
          const failing = items.filter((item) => item.fails).map((item) => `failed ${item.value}`);
          expect(failing).toContain(outcome.error.message);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('calls nothing for no items', async () => {
    let calls = 0;
    expect(await mapLimit([], 4, async () => (calls += 1))).toEqual([]);
    expect(calls).toBe(0);
  });
});

describe('byDepth', () => {
  it('groups folders by depth, parents before children or children before parents', () => {
    const dirs = ['a/b/c', 'a', 'x/y', 'a/b', 'z'];
    expect(byDepth(dirs, 'outermost-first')).toEqual([['a', 'z'], ['x/y', 'a/b'], ['a/b/c']]);
    expect(byDepth(dirs, 'deepest-first')).toEqual([['a/b/c'], ['x/y', 'a/b'], ['a', 'z']]);
    expect(byDepth(['/r/a/b', '/r/a'], 'deepest-first')).toEqual([['/r/a/b'], ['/r/a']]);
  });

  it('every folder comes after (outermost first) or before (deepest first) all of its parents', () => {
    const dirArb = fc
      .array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 4 })
      .map((s) => s.join('/'));
    fc.assert(
      fc.property(fc.uniqueArray(dirArb, { maxLength: 20 }), (dirs) => {
        const flat = byDepth(dirs, 'outermost-first').flat();
        expect([...flat].sort()).toEqual([...dirs].sort());
        const position = new Map(flat.map((dir, index) => [dir, index]));
        for (const dir of dirs) {
          for (const parent of dirs.filter((other) => dir.startsWith(`${other}/`))) {
            expect(position.get(parent)!).toBeLessThan(position.get(dir)!);
          }
        }
        const reversed = byDepth(dirs, 'deepest-first').flat();
        expect(reversed.map((dir) => dir.split('/').length)).toEqual(
          [...flat].reverse().map((dir) => dir.split('/').length),
        );
      }),
      { numRuns: 200 },
    );
  });
});

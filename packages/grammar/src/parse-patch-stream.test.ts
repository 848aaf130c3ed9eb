import type { Operation } from '@patchsmith/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse-patch.js';
import { type PatchStreamEvent, parsePatchStream } from './parse-patch-stream.js';
import { printPatch } from './print-patch.js';
import { addNoise, noise, printableScript } from './test-support/arbitraries.js';

/** Streams `text` cut at `cuts` (offsets), collecting every event. */
function stream(text: string, cuts: number[]) {
  const parser = parsePatchStream();
  const events: PatchStreamEvent[] = [];
  let at = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    events.push(...parser.push(text.slice(at, cut)));
    at = cut;
  }
  events.push(...parser.push(text.slice(at)));
  const end = parser.end();
  events.push(...end.events);
  return { events, result: end.result };
}

const operations = (events: PatchStreamEvent[]): Operation[] =>
  events.flatMap((e) => (e.type === 'operation' ? [e.operation] : []));

describe('parsePatchStream', () => {
  it('every split of a text into pieces yields the same script as parsePatch', () => {
    fc.assert(
      fc.property(printableScript, noise, fc.array(fc.nat(), { maxLength: 8 }), (script, n, rawCuts) => {
        const text = addNoise(printPatch(script), script, n);
        const cuts = rawCuts.map((c) => c % (text.length + 1));
        const whole = parsePatch(text);
        const { events, result } = stream(text, cuts);
        expect(result).toStrictEqual(whole);
        if (whole.ok) expect(operations(events)).toStrictEqual(whole.value.operations);
      }),
      { numRuns: 200 },
    );
  });

  it('emits an operation as soon as the next header arrives, with progress for the one in flight', () => {
    const parser = parsePatchStream();
    expect(parser.push('*** Begin Patch\n*** Add File: a.txt\n+one\n+tw')).toStrictEqual([
      { type: 'progress', kind: 'add', path: 'a.txt', lines: 0 },
      { type: 'progress', kind: 'add', path: 'a.txt', lines: 1 },
    ]);
    expect(parser.push('o\n*** Delete File: b.txt\n')).toStrictEqual([
      { type: 'progress', kind: 'add', path: 'a.txt', lines: 2 },
      { type: 'operation', operation: { kind: 'add', path: 'a.txt', lines: ['one', 'two'], line: 2 } },
      { type: 'progress', kind: 'delete', path: 'b.txt', lines: 0 },
    ]);
    expect(parser.push('*** End Patch')).toStrictEqual([]);
    const end = parser.end();
    expect(end.events).toStrictEqual([
      { type: 'operation', operation: { kind: 'delete', path: 'b.txt', line: 5 } },
    ]);
    expect(end.result.ok).toBe(true);
  });

  it('a broken patch emits what was complete and ends with the same error as parsePatch', () => {
    const text =
      '*** Begin Patch\n*** Add File: a\n+x\n*** Update File: b\nnot a chunk line\n*** End Patch\n';
    const { events, result } = stream(text, [10, 40]);
    expect(operations(events).map((o) => o.path)).toStrictEqual(['a']);
    expect(result).toStrictEqual(parsePatch(text));
    expect(result.ok).toBe(false);
  });
});

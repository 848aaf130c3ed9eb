import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestIdScanner } from './request-id-scanner.js';

/** Feeds the text's bytes in the given piece sizes. */
function scan(text: string, sizes: number[] = []): string | number | undefined {
  const bytes = Buffer.from(text, 'utf8');
  const scanner = new RequestIdScanner();
  let at = 0;
  for (const size of sizes) {
    scanner.feed(bytes.subarray(at, at + size));
    at += size;
  }
  scanner.feed(bytes.subarray(at));
  return scanner.id;
}

describe('RequestIdScanner', () => {
  it('finds the top-level id wherever it is, and only that one', () => {
    expect(scan('{"jsonrpc":"2.0","id":7,"method":"x"}')).toBe(7);
    expect(
      scan('{"method":"tools/call","params":{"id":"inner","a":[{"id":1}]},"jsonrpc":"2.0","id":"outer"}'),
    ).toBe('outer');
    expect(scan('{ "id" : "a\\"b" }')).toBe('a"b');
    expect(scan('{"key":"\\"id\\":5","id":-2.5e3}')).toBe(-2500);
    expect(scan('{"method":"x","params":{"id":3}}')).toBeUndefined();
    expect(scan('[{"id":1}]')).toBeUndefined();
    expect(scan('{"id":null}')).toBeUndefined();
    expect(scan('{"id":{"a":1}}')).toBeUndefined();
    expect(scan('{"i\\u0064":4}')).toBeUndefined();
  });

  it('reads the id JSON.parse reads, whatever the message and however it is cut', () => {
    const id = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    const message = fc.record({
      before: fc.dictionary(
        fc.string().filter((k) => k !== 'id'),
        fc.jsonValue(),
      ),
      id,
      after: fc.dictionary(
        fc.string().filter((k) => k !== 'id'),
        fc.jsonValue(),
      ),
    });
    fc.assert(
      fc.property(message, fc.array(fc.nat(40)), fc.boolean(), ({ before, id, after }, sizes, spaced) => {
        const text = JSON.stringify({ ...before, id, ...after }, null, spaced ? 1 : undefined);
        expect(scan(text, sizes)).toBe(JSON.parse(text).id);
      }),
    );
  });
});

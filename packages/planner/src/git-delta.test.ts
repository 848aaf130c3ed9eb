import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyGitDelta } from './git-delta.js';

/** git's varint: seven bits a byte, least significant first. */
function varint(n: number): number[] {
  const out: number[] = [];
  do {
    const low = n & 0x7f;
    n = Math.floor(n / 128);
    out.push(n > 0 ? low | 0x80 : low);
  } while (n > 0);
  return out;
}

type Step = { copy: [offset: number, size: number] } | { insert: number[] };

/** The delta git would write for these steps (only the offset and size bytes that are not 0). */
function encode(baseSize: number, steps: readonly Step[]): Uint8Array {
  const body: number[] = [];
  let resultSize = 0;
  for (const step of steps) {
    if ('insert' in step) {
      body.push(step.insert.length, ...step.insert);
      resultSize += step.insert.length;
      continue;
    }
    const [offset, size] = step.copy;
    let op = 0x80;
    const args: number[] = [];
    for (let i = 0; i < 4; i++) {
      const byte = Math.floor(offset / 2 ** (8 * i)) & 0xff;
      if (byte !== 0) (op |= 1 << i), args.push(byte);
    }
    const stored = size === 0x10000 ? 0 : size;
    for (let i = 0; i < 3; i++) {
      const byte = (stored >> (8 * i)) & 0xff;
      if (byte !== 0) (op |= 1 << (4 + i)), args.push(byte);
    }
    body.push(op, ...args);
    resultSize += size;
  }
  return Uint8Array.from([...varint(baseSize), ...varint(resultSize), ...body]);
}

/** What the steps mean, computed plainly. */
function expected(base: Uint8Array, steps: readonly Step[]): Uint8Array {
  const out: number[] = [];
  for (const step of steps) {
    if ('insert' in step) out.push(...step.insert);
    else out.push(...base.subarray(step.copy[0], step.copy[0] + step.copy[1]));
  }
  return Uint8Array.from(out);
}

describe('applyGitDelta', () => {
  it('gives what its copy and insert instructions say', () => {
    const arbitrary = fc.uint8Array({ minLength: 1, maxLength: 300 }).chain((base) =>
      fc.tuple(
        fc.constant(base),
        fc.array(
          fc.oneof(
            fc
              .tuple(fc.nat(base.length - 1), fc.integer({ min: 1, max: base.length }))
              .map(([offset, size]): Step => ({ copy: [offset, Math.min(size, base.length - offset)] })),
            fc.array(fc.nat(255), { minLength: 1, maxLength: 127 }).map((insert): Step => ({ insert })),
          ),
          { maxLength: 12 },
        ),
      ),
    );
    fc.assert(
      fc.property(arbitrary, ([base, steps]) => {
        expect(applyGitDelta(base, encode(base.length, steps))).toEqual({
          ok: true,
          bytes: expected(base, steps),
        });
      }),
    );
  });

  it('reads a copy size of 0 as 0x10000', () => {
    const base = Uint8Array.from({ length: 0x10000 + 5 }, (_, i) => i % 256);
    const applied = applyGitDelta(base, encode(base.length, [{ copy: [5, 0x10000] }]));
    expect(applied).toEqual({ ok: true, bytes: base.subarray(5) });
  });

  it('refuses a base of another size as the wrong base', () => {
    const delta = encode(10, [{ insert: [1] }]);
    expect(applyGitDelta(new Uint8Array(9), delta)).toMatchObject({ ok: false, wrongBase: true });
  });

  it('refuses, never crashes on, a delta that reads past its base or its own end', () => {
    const base = new Uint8Array(10);
    const cases: Array<[Uint8Array, RegExp]> = [
      [encode(10, [{ copy: [8, 5] }]), /reads bytes 8\.\.13 of a 10-byte base/],
      [Uint8Array.from([10, 3, 5, 1, 2]), /ends inside an insert/],
      [Uint8Array.from([10, 3, 0x91]), /ends inside a copy/],
      [Uint8Array.from([10, 1, 0]), /reserved instruction 0/],
      [Uint8Array.from([0x8a]), /ends inside its size header/],
      [Uint8Array.from([10, 1, 2, 7, 7]), /insert writes past the result size/],
      [Uint8Array.from([10, 3, 1, 7]), /writes 1 bytes, its header says 3/],
      [Uint8Array.from([10, 1, 0x90, 5]), /copy writes past the result size/],
      [Uint8Array.from([10, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 1]), /announces \d+ bytes, more than/],
    ];
    for (const [delta, reason] of cases) {
      const applied = applyGitDelta(base, delta);
      expect(applied.ok).toBe(false);
      if (!applied.ok) expect(applied.reason).toMatch(reason);
    }
  });

  it('survives any bytes as a delta', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }), (base, delta) => {
        const applied = applyGitDelta(base, delta);
        expect(typeof applied.ok).toBe('boolean');
      }),
    );
  });
});

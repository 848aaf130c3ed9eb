/**
 * git's delta format (patch-delta.c), what a `delta` hunk of a `GIT binary patch` holds once
 * inflated: the base's size and the result's size as little-endian base-128 varints, then
 * instructions: a byte with the high bit set copies from the base (its low four bits say which
 * offset bytes follow, the next three which size bytes; a size of 0 means 0x10000), a byte of 1–127
 * inserts that many literal bytes, and 0 is reserved. Anything else is an error, never a crash.
 */
import { MAX_BINARY_BYTES } from '@patchsmith/core';

/** A copy of 0xffffff bytes takes 4 instruction bytes (offset 0 is omitted): what a delta byte can write at most. */
const MAX_BYTES_PER_DELTA_BYTE = 0x1000000 / 4;

export type DeltaResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; reason: string; wrongBase?: boolean };

/** Reads the varint at `pos`: its value and the position after it, or null when it runs out. */
function readSize(delta: Uint8Array, pos: number): { value: number; next: number } | null {
  let value = 0;
  let shift = 0;
  for (let p = pos; p < delta.length && shift < 49; p++, shift += 7) {
    const byte = delta[p]!;
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return { value, next: p + 1 };
  }
  return null;
}

/** The result of applying `delta` to `base`. */
export function applyGitDelta(base: Uint8Array, delta: Uint8Array): DeltaResult {
  const baseSize = readSize(delta, 0);
  const resultSize = baseSize === null ? null : readSize(delta, baseSize.next);
  if (baseSize === null || resultSize === null)
    return { ok: false, reason: 'the delta ends inside its size header' };
  if (baseSize.value !== base.length) {
    return {
      ok: false,
      wrongBase: true,
      reason: `the delta was made from ${baseSize.value} bytes, the file has ${base.length}`,
    };
  }
  if (resultSize.value > Math.min(MAX_BINARY_BYTES, delta.length * MAX_BYTES_PER_DELTA_BYTE)) {
    return {
      ok: false,
      reason: `the delta announces ${resultSize.value} bytes, more than its instructions can write`,
    };
  }
  const out = new Uint8Array(resultSize.value);
  let written = 0;
  let pos = resultSize.next;
  while (pos < delta.length) {
    const op = delta[pos++]!;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let bit = 0; bit < 7; bit++) {
        if ((op & (1 << bit)) === 0) continue;
        if (pos >= delta.length) return { ok: false, reason: 'the delta ends inside a copy instruction' };
        const byte = delta[pos++]!;
        if (bit < 4) offset += byte * 2 ** (8 * bit);
        else size += byte * 2 ** (8 * (bit - 4));
      }
      if (size === 0) size = 0x10000;
      if (offset + size > base.length) {
        return {
          ok: false,
          reason: `a copy reads bytes ${offset}..${offset + size} of a ${base.length}-byte base`,
        };
      }
      if (written + size > out.length) return { ok: false, reason: 'a copy writes past the result size' };
      out.set(base.subarray(offset, offset + size), written);
      written += size;
    } else if (op !== 0) {
      if (pos + op > delta.length)
        return { ok: false, reason: 'the delta ends inside an insert instruction' };
      if (written + op > out.length) return { ok: false, reason: 'an insert writes past the result size' };
      out.set(delta.subarray(pos, pos + op), written);
      written += op;
      pos += op;
    } else {
      return { ok: false, reason: 'the delta has the reserved instruction 0' };
    }
  }
  if (written !== out.length) {
    return { ok: false, reason: `the delta writes ${written} bytes, its header says ${out.length}` };
  }
  return { ok: true, bytes: out };
}

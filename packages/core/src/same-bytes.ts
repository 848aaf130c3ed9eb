/** A Buffer over the same memory (no copy), for Buffer's native comparison. */
const view = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Whether two byte arrays hold the same bytes (memcmp, not a JavaScript loop over megabytes). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || (a.length === b.length && view(a).equals(view(b)));
}

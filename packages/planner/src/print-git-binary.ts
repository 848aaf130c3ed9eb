import { createRequire } from 'node:module';
import { gitBlobId } from '@patchsmith/core';

/** node:zlib on first use: with the stream modules it loads, ~18 M instructions of every start-up. */
const zlib = (): typeof import('node:zlib') => createRequire(import.meta.url)('node:zlib');

/** git's base85 alphabet (base85.c), in digit order. */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';
/** git writes 52 bytes a line. */
const LINE_BYTES = 52;
const NULL_ID = '0'.repeat(40);

/** One base85 line: a length letter (`A`–`Z` 1–26, `a`–`z` 27–52), then five characters per four bytes. */
function base85Line(bytes: Uint8Array): string {
  let line = String.fromCharCode(bytes.length <= 26 ? 64 + bytes.length : 96 + bytes.length - 26);
  for (let i = 0; i < bytes.length; i += 4) {
    let value = 0;
    for (let k = 0; k < 4; k++) value = value * 256 + (bytes[i + k] ?? 0);
    let group = '';
    for (let k = 0; k < 5; k++) {
      group = ALPHABET[value % 85]! + group;
      value = Math.floor(value / 85);
    }
    line += group;
  }
  return line;
}

/** A `literal` hunk of `bytes`, deflated, with the empty line that ends it. */
function literalHunk(bytes: Uint8Array): string[] {
  const deflated = zlib().deflateSync(bytes);
  const lines = [`literal ${bytes.length}`];
  for (let i = 0; i < deflated.length; i += LINE_BYTES)
    lines.push(base85Line(deflated.subarray(i, i + LINE_BYTES)));
  lines.push('');
  return lines;
}

/**
 * The `index` line and `GIT binary patch` of a change between two contents (null: absent), as
 * `git diff --binary` writes them: full blob ids, a literal forward hunk and a literal reverse one,
 * so that `git apply` and patchsmith check the base and apply the result byte for byte.
 */
export function gitBinaryLines(before: Uint8Array | null, after: Uint8Array | null): string[] {
  const oldId = before === null ? NULL_ID : gitBlobId(before);
  const newId = after === null ? NULL_ID : gitBlobId(after);
  const empty = new Uint8Array(0);
  return [
    `index ${oldId}..${newId}`,
    'GIT binary patch',
    ...literalHunk(after ?? empty),
    ...literalHunk(before ?? empty),
  ];
}

import { constants as bufferConstants } from 'node:buffer';

/**
 * Patch input arrives as bytes (a file, stdin). It is decoded strictly: bytes that are not UTF-8
 * would otherwise become U+FFFD, and added lines would be written with other bytes than the
 * patch holds while the edit reads as a success. Such input is refused, naming the line.
 */
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export type DecodedInput = { ok: true; text: string } | { ok: false; message: string; line: number };

/** The most bytes one patch may have: V8's longest string (about 512 MiB); the input readers stop one byte past it. */
const MAX_PATCH_BYTES = bufferConstants.MAX_STRING_LENGTH;

export function decodeInput(bytes: Uint8Array): DecodedInput {
  if (bytes.length > MAX_PATCH_BYTES) {
    return {
      ok: false,
      line: 1,
      message: `line 1: the patch is larger than ${MAX_PATCH_BYTES} bytes, more than one patch may hold; nothing was applied: send it as several patches`,
    };
  }
  try {
    return { ok: true, text: strict.decode(bytes) };
  } catch {
    const offset = firstInvalidByte(bytes);
    let line = 1;
    for (let i = bytes.indexOf(0x0a); i !== -1 && i < offset; i = bytes.indexOf(0x0a, i + 1)) line++;
    return {
      ok: false,
      line,
      message:
        `line ${line}: the patch is not valid UTF-8 at line ${line} (byte offset ${offset} of the input, ` +
        `byte 0x${(bytes[offset] ?? 0).toString(16).padStart(2, '0')}); its bytes cannot be written back exactly, ` +
        'so nothing was applied: send the patch as UTF-8',
    };
  }
}

/** Continuation byte: 10xxxxxx. */
function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** The offset of the first byte that starts no valid UTF-8 sequence (RFC 3629: no overlong form, surrogate or value past U+10FFFF). */
function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    for (let k = 1; k < length; k++) if (!isContinuation(bytes[i + k])) return i;
    const second = bytes[i + 1]!;
    const outOfRange =
      (b === 0xe0 && second < 0xa0) ||
      (b === 0xed && second > 0x9f) ||
      (b === 0xf0 && second < 0x90) ||
      (b === 0xf4 && second > 0x8f);
    if (outOfRange) return i;
    i += length;
  }
  return bytes.length;
}

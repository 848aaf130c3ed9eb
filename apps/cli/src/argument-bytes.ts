import { readFileSync } from 'node:fs';

/**
 * The bytes a command-line argument arrived as, where the OS shows them (Linux:
 * `/proc/self/cmdline`), or null. Node decodes argv leniently, so a patch argument holding bytes
 * that are not UTF-8 reaches us with U+FFFD in their place; only the raw bytes tell. The bytes
 * are used only when they decode (leniently) to the very string we were given, so an argument
 * passed in-process, not by the OS, is never mistaken for another.
 */
export function argumentBytes(argument: string): Uint8Array | null {
  let cmdline: Buffer;
  try {
    cmdline = readFileSync('/proc/self/cmdline');
  } catch {
    return null;
  }
  const end = cmdline.length > 0 && cmdline[cmdline.length - 1] === 0 ? cmdline.length - 1 : cmdline.length;
  const start = cmdline.lastIndexOf(0, end - 1) + 1;
  const last = cmdline.subarray(start, end);
  return last.toString('utf8') === argument ? last : null;
}

import { constants as bufferConstants } from 'node:buffer';
import { fstatSync, readSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** Output sinks, injected so tests can run a command in-process. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Every byte of standard input; by default, of the `stdin` stream. */
  readStdin?: () => Promise<Uint8Array>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** True when stdout is a terminal (colours, prompts). */
  isTTY: boolean;
}

const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code;
const pause = new Int32Array(new SharedArrayBuffer(4));
/** Blocks for about a millisecond: a non-blocking pipe that is full (or empty) is waited out. */
const waitAMoment = () => Atomics.wait(pause, 0, 0, 1);

/** Writes all of `text` to `fd`; a reader that went away (EPIPE) takes nothing more. */
function writeAll(fd: number, text: string): void {
  let bytes = Buffer.from(text);
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      if (errnoOf(error) === 'EPIPE') return;
      if (errnoOf(error) !== 'EAGAIN') throw error;
      waitAMoment();
    }
  }
}

/**
 * The most input bytes kept: no more can become one string, and reading on would only fill the
 * memory (`decodeInput` refuses more, so one byte past it is enough to tell).
 */
export const MAX_INPUT_BYTES = bufferConstants.MAX_STRING_LENGTH;

/** Standard input's bytes, read from fd 0 to its end (nothing is lost to a retry), or to one byte past MAX_INPUT_BYTES. */
function readFd0(): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(1 << 16);
    let count: number;
    try {
      count = readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      if (errnoOf(error) !== 'EAGAIN') throw error;
      waitAMoment();
      continue;
    }
    if (count === 0) return Buffer.concat(chunks);
    chunks.push(chunk.subarray(0, count));
    total += count;
    if (total > MAX_INPUT_BYTES) return Buffer.concat(chunks).subarray(0, MAX_INPUT_BYTES + 1);
  }
}

let stdinKind: boolean | undefined;

// A file, pipe or socket on fd 0: read directly. A terminal (or anything else) goes through the
// stream. What fd 0 is does not change while the process runs, so it is looked at once.
function stdinIsPlainData(): boolean {
  if (stdinKind === undefined) {
    try {
      const stats = fstatSync(0);
      stdinKind = stats.isFile() || stats.isFIFO() || stats.isSocket();
    } catch {
      stdinKind = false;
    }
  }
  return stdinKind;
}

// A terminal is a character device; a file, pipe or socket is not, and needs no stream to tell.
function isCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}

/**
 * The process's own streams. On POSIX, output goes straight to fds 1 and 2 and piped input is
 * read from fd 0: Node's stream objects cost ~25 M instructions (~2.5 ms) to set up, on every one
 * of the hundreds of calls an agent makes (cachegrind). They are created only when a command
 * needs them (a prompt, a terminal). Windows keeps the streams (console encoding).
 */
export function processIo(): Io {
  const direct = process.platform !== 'win32';
  return {
    stdout: direct ? (t) => writeAll(1, t) : (t) => process.stdout.write(t),
    stderr: direct ? (t) => writeAll(2, t) : (t) => process.stderr.write(t),
    get stdin() {
      return process.stdin;
    },
    readStdin: async () => (direct && stdinIsPlainData() ? readFd0() : readAll(process.stdin)),
    env: process.env,
    cwd: process.cwd(),
    get isTTY() {
      return (!direct || isCharacterDevice(1)) && Boolean(process.stdout.isTTY);
    },
  };
}

/** Whether standard input is a terminal, without setting up its stream when it plainly is not. */
export function stdinIsTTY(io: Io): boolean {
  if (io.readStdin !== undefined && process.platform !== 'win32' && stdinIsPlainData()) return false;
  return Boolean(io.stdin.isTTY);
}

/** Every byte of a stream; nothing is decoded here (see `decodeInput`). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    total += chunks.at(-1)!.length;
    if (total > MAX_INPUT_BYTES) return Buffer.concat(chunks).subarray(0, MAX_INPUT_BYTES + 1);
  }
  return Buffer.concat(chunks);
}

/** A file's bytes, or its first MAX_INPUT_BYTES + 1 when it is larger (enough to refuse it). */
async function readCapped(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size <= MAX_INPUT_BYTES) return await handle.readFile();
    const head = Buffer.allocUnsafe(MAX_INPUT_BYTES + 1);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The patch's bytes from FILE, or from stdin when FILE is `-` or absent. */
export async function readInput(file: string | undefined, io: Io): Promise<Uint8Array> {
  if (file === undefined || file === '-') return io.readStdin ? io.readStdin() : readAll(io.stdin);
  return readCapped(file);
}

export const EXIT_OK = 0;
export const EXIT_REJECTED = 1;
export const EXIT_USAGE = 2;
/** A partial apply (`--partial`) that wrote some files and refused others. */
export const EXIT_PARTIAL = 3;

/** A mistake in the command line itself: exit 2 with a message, never a stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
}

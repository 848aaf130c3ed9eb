import { readFile } from 'node:fs/promises';

/** Output sinks, injected so tests can run a command in-process. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** True when stdout is a terminal (colours, prompts). */
  isTTY: boolean;
}

export function processIo(): Io {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    isTTY: Boolean(process.stdout.isTTY),
  };
}

/** Every byte of a stream; nothing is decoded here (see `decodeInput`). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** The patch's bytes from FILE, or from stdin when FILE is `-` or absent. */
export async function readInput(file: string | undefined, io: Io): Promise<Uint8Array> {
  if (file === undefined || file === '-') return readAll(io.stdin);
  return readFile(file);
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

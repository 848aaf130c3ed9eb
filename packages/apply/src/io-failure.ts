import { relative } from 'node:path';
import { type EditError, PatchsmithError } from '@patchsmith/grammar';
import { errnoOf } from './fs.js';

/** A file-system call that failed, with the call and the path it failed on. */
export class IoFailure extends Error {
  readonly call: string;
  readonly path: string;
  override readonly cause: unknown;

  constructor(call: string, path: string, cause: unknown) {
    super(`${call} ${path}: ${(cause as Error | null)?.message ?? String(cause)}`);
    this.name = 'IoFailure';
    this.call = call;
    this.path = path;
    this.cause = cause;
  }

  get errno(): string | undefined {
    return errnoOf(this.cause);
  }
}

/** Runs one fs call, turning its failure into an `IoFailure` that names the call and the path. */
export async function io<T>(call: string, path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof IoFailure) throw error;
    throw new IoFailure(call, path, error);
  }
}

/** The path as the user knows it: relative to the root when inside it. */
export function displayPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel === '' || rel.startsWith('..') ? path : rel;
}

/** An `IO_ERROR` value for a failed call; `outcome` says what became of the tree. */
export function ioError(root: string, error: unknown, outcome: string): EditError {
  if (error instanceof IoFailure) {
    const path = displayPath(root, error.path);
    const reason = (error.cause as Error | null)?.message ?? String(error.cause);
    return { code: 'IO_ERROR', message: `${error.call} failed on ${path}: ${reason}; ${outcome}`, path };
  }
  return { code: 'IO_ERROR', message: `${(error as Error | null)?.message ?? String(error)}; ${outcome}` };
}

/** A `PatchsmithError` as is; an I/O failure as `IO_ERROR`; anything else unchanged. */
export function asPatchsmithError(error: unknown): unknown {
  if (error instanceof IoFailure) return new PatchsmithError('IO_ERROR', error.message, { path: error.path });
  return error;
}

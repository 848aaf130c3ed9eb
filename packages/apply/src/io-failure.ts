import { relative } from 'node:path';
import { type EditError, PatchsmithError } from '@patchsmith/core';
import { errnoOf } from './fs.js';

/** What a failed call's error says, without the path Node appends (`, open '/x'`): the caller names it. */
export function reasonOf(cause: unknown): string {
  const message = (cause as Error | null)?.message ?? String(cause);
  return message.replace(/, [a-z]+ '.*$/s, '');
}

/** A file-system call that failed, with the call and the path it failed on. */
export class IoFailure extends Error {
  readonly call: string;
  readonly path: string;
  override readonly cause: unknown;

  constructor(call: string, path: string, cause: unknown) {
    super(`${call} failed on ${path}: ${reasonOf(cause)}`);
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
    if (error instanceof IoFailure || error instanceof PatchsmithError) throw error;
    throw new IoFailure(call, path, error);
  }
}

/** The path as the user knows it: relative to the root when inside it. */
export function displayPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel === '' || rel === '..' || rel.startsWith('../') || rel.startsWith('..\\') ? path : rel;
}

/**
 * How paths are shown to the user: a staged temporary file is shown as the file it stands in for,
 * since its name means nothing to anyone (absolute paths, both ways).
 */
export type ShownNames = ReadonlyMap<string, string>;

/** An `IO_ERROR` value for a failed call; `outcome` says what became of the tree. */
export function ioError(root: string, error: unknown, outcome: string, shown?: ShownNames): EditError {
  if (error instanceof IoFailure) {
    const path = displayPath(root, shown?.get(error.path) ?? error.path);
    const message = `${error.call} failed on ${path}: ${reasonOf(error.cause)}; ${outcome}`;
    return { code: 'IO_ERROR', message, path };
  }
  if (error instanceof PatchsmithError) return error.toEditError();
  return { code: 'IO_ERROR', message: `${reasonOf(error)}; ${outcome}` };
}

// A Node system error that escaped unwrapped: it still names its call and path.
function isSystemError(error: unknown): error is NodeJS.ErrnoException & { syscall: string } {
  return errnoOf(error) !== undefined && typeof (error as { syscall?: unknown }).syscall === 'string';
}

/** A `PatchsmithError` as is; an I/O failure (wrapped or not) as `IO_ERROR` naming the call; anything else unchanged. */
export function asPatchsmithError(error: unknown): unknown {
  if (error instanceof IoFailure) return new PatchsmithError('IO_ERROR', error.message, { path: error.path });
  if (isSystemError(error)) {
    const failure = new IoFailure(error.syscall, error.path ?? '(no path)', error);
    return new PatchsmithError('IO_ERROR', failure.message, { path: failure.path });
  }
  return error;
}

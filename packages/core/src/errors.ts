/**
 * The one place where error codes live. Expected outcomes (a chunk that does not match, a path
 * outside the root) travel as `EditError` values; truly exceptional conditions are thrown as
 * `PatchsmithError` with the same stable codes. Only the CLI maps codes to exit statuses.
 */

export const ERROR_CODES = [
  'PARSE_ERROR',
  'EMPTY_PATCH',
  'NO_MATCH',
  'AMBIGUOUS',
  'FILE_NOT_FOUND',
  'NOT_A_FILE',
  'BINARY_FILE',
  'PATH_OUTSIDE_ROOT',
  'PATH_INVALID',
  'INVALID_EDIT',
  'STALE',
  'DENIED',
  'BUSY',
  'IO_ERROR',
  'STATE_INVALID',
  'ELIDED_CODE',
  'NO_SNAPSHOT',
  // A file larger than patchsmith reads (MAX_FILE_BYTES); nothing of it was read.
  'TOO_LARGE',
  // The host cancelled the call (its AbortSignal) before the commit point: nothing was written.
  'ABORTED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The file region most similar to a chunk that did not match, so a model can correct its copy. */
export interface NearestRegion {
  /** 1-based first line of the region in the file before the patch. */
  startLine: number;
  /** 1-based last line (inclusive). */
  endLine: number;
  /** 0..1, 1 meaning identical. */
  similarity: number;
  /** A short unified-style diff: `-expected` / `+actual` / ` same` lines. */
  diff: string;
}

export interface EditError {
  code: ErrorCode;
  message: string;
  path?: string;
  /** 0-based index of the chunk within its operation. */
  chunk?: number;
  /** 1-based line in the patch text (or in the file, where the message says so). */
  line?: number;
  /** 1-based file lines of every candidate, for AMBIGUOUS. */
  candidates?: number[];
  nearest?: NearestRegion;
  /** What was expected at `line`, for PARSE_ERROR. */
  expected?: string;
}

export class PatchsmithError extends Error {
  readonly code: ErrorCode;
  readonly details: Omit<EditError, 'code' | 'message'>;

  constructor(code: ErrorCode, message: string, details: Omit<EditError, 'code' | 'message'> = {}) {
    super(message);
    this.name = 'PatchsmithError';
    this.code = code;
    this.details = details;
  }

  toEditError(): EditError {
    return { code: this.code, message: this.message, ...this.details };
  }
}

/** Result of an operation that can fail in expected ways. */
export type Result<T> = { ok: true; value: T } | { ok: false; errors: EditError[] };

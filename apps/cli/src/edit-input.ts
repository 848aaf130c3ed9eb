import type { StrReplaceCommand } from '@patchsmith/core';
import type { EditReport } from '@patchsmith/formatter';
import type { EditInput } from '@patchsmith/tool';
import { decodeInput } from './decode-input.js';
import { type Io, readInput, UsageError } from './io.js';

/** A JSON object or array: text-editor commands, which no patch format starts with. */
function looksLikeJson(text: string): boolean {
  return /^\s*[[{]/.test(text);
}

export const FORMATS = ['auto', 'codex', 'unified', 'search-replace', 'whole-file', 'str_replace'] as const;
export type Format = (typeof FORMATS)[number];

/**
 * What `--format` makes of the input: a patch text (detected or of the named format), or for
 * `str_replace` JSON text-editor commands (one object or an array), or the JSON error as a rejection.
 */
/** Input that cannot become an edit: the PARSE_ERROR to report, and its line when known. */
export interface InputError {
  error: string;
  line?: number;
}

export function editInput(text: string, format: Format): EditInput | InputError {
  if (format !== 'str_replace' && !(format === 'auto' && looksLikeJson(text)))
    return { kind: 'patch', text, format };
  try {
    const value: unknown = JSON.parse(text);
    return { kind: 'edits', edits: (Array.isArray(value) ? value : [value]) as StrReplaceCommand[] };
  } catch (error) {
    return {
      error: `str_replace input must be JSON (one edit object or an array of them): ${(error as Error).message}`,
    };
  }
}

export function rejectedInput(input: InputError, dryRun: boolean): EditReport {
  return {
    ok: false,
    dryRun,
    files: [],
    diagnostics: [],
    snapshot: null,
    errors: [
      { code: 'PARSE_ERROR', message: input.error, ...(input.line !== undefined && { line: input.line }) },
    ],
  };
}

/**
 * The input of `apply` and `diff`: one FILE (or stdin for `-` or none), read in the `--format`
 * asked for. Usage mistakes throw; bytes that are not UTF-8 and JSON that does not parse come back
 * as `{error}`.
 */
export async function readEditInput(
  positionals: string[],
  format: string,
  io: Io,
): Promise<EditInput | InputError> {
  if (positionals.length > 1)
    throw new UsageError(`expected at most one input file, got ${positionals.length}`);
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}; got '${format}'`);
  }
  const decoded = decodeInput(await readInput(positionals[0], io));
  if (!decoded.ok) return { error: decoded.message, line: decoded.line };
  return editInput(decoded.text, format as Format);
}

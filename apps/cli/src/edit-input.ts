import type { EditReport } from '@patchsmith/formatter';
import type { StrReplaceCommand } from '@patchsmith/grammar';
import type { EditInput } from '@patchsmith/tool';
import { type Io, readInput, UsageError } from './io.js';

/** A JSON object or array: text-editor commands, which no patch format starts with. */
function looksLikeJson(text: string): boolean {
  return /^\s*[[{]/.test(text);
}

export const FORMATS = ['auto', 'codex', 'unified', 'search-replace', 'str_replace'] as const;
export type Format = (typeof FORMATS)[number];

/**
 * What `--format` makes of the input: a patch text (detected or of the named format), or for
 * `str_replace` JSON text-editor commands (one object or an array), or the JSON error as a rejection.
 */
export function editInput(text: string, format: Format): EditInput | { error: string } {
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

export function rejectedInput(message: string, dryRun: boolean): EditReport {
  return {
    ok: false,
    dryRun,
    files: [],
    diagnostics: [],
    snapshot: null,
    errors: [{ code: 'PARSE_ERROR', message }],
  };
}

/**
 * The input of `apply` and `diff`: one FILE (or stdin for `-` or none), read in the `--format`
 * asked for. Usage mistakes throw; JSON that does not parse comes back as `{error}`.
 */
export async function readEditInput(
  positionals: string[],
  format: string,
  io: Io,
): Promise<EditInput | { error: string }> {
  if (positionals.length > 1)
    throw new UsageError(`expected at most one input file, got ${positionals.length}`);
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}; got '${format}'`);
  }
  return editInput(await readInput(positionals[0], io), format as Format);
}

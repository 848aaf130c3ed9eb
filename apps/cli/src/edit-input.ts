import type { EditReport } from '@patchsmith/formatter';
import type { StrReplaceCommand } from '@patchsmith/grammar';
import type { EditInput } from '@patchsmith/tool';

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

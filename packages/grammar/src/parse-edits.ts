/**
 * The one entry for patch texts in any format: detects the format (or takes the one given) and
 * compiles the text into an edit script.
 */

import type { EditScript, PatchFormat, Result } from '@patchsmith/core';
import { compileStrReplace } from './compile-str-replace.js';
import { detectFormat } from './detect-format.js';
import { parsePatch } from './parse-patch.js';
import { parseSearchReplace } from './parse-search-replace.js';
import { parseUnified } from './parse-unified.js';
import { parseWholeFile } from './parse-whole-file.js';

export type InputFormat = PatchFormat | 'auto';

export function parseEdits(text: string, format: InputFormat = 'auto'): Result<EditScript> {
  const chosen = format === 'auto' ? detectFormat(text) : format;
  switch (chosen) {
    case 'codex':
      return parsePatch(text);
    case 'unified':
      return parseUnified(text);
    case 'search-replace':
      return parseSearchReplace(text);
    case 'str_replace':
      return parseStrReplaceJson(text);
    case 'whole-file':
      return parseWholeFile(text);
  }
}

/** str_replace input as JSON text: one command object or an array of them. */
function parseStrReplaceJson(text: string): Result<EditScript> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      errors: [
        {
          code: 'PARSE_ERROR',
          message: `str_replace input must be JSON (one edit object or an array of them): ${reason}`,
          expected: 'a JSON edit object or array',
        },
      ],
    };
  }
  return compileStrReplace(Array.isArray(value) ? value : [value]);
}

/**
 * Text that UTF-8 cannot carry: a JS string with a lone UTF-16 surrogate (JSON allows `"\ud800"`)
 * would be written as U+FFFD by every encoder, so the bytes the model meant are lost. Patch texts
 * and text-editor commands holding one are refused before anything is planned.
 */
import type { EditError } from '@patchsmith/core';

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Where the first lone surrogate of `text` is (1-based line and column, in UTF-16 units), or null. */
export function loneSurrogate(text: string): { line: number; column: number } | null {
  const found = LONE_SURROGATE.exec(text);
  if (found === null) return null;
  const before = text.slice(0, found.index);
  const lineStart = before.lastIndexOf('\n') + 1;
  let line = 1;
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) line++;
  return { line, column: found.index - lineStart + 1 };
}

/** A PARSE_ERROR for a patch text holding a lone surrogate, or null when the text is well formed. */
export function notWellFormedPatch(text: string): EditError | null {
  const at = loneSurrogate(text);
  if (at === null) return null;
  return {
    code: 'PARSE_ERROR',
    message:
      `line ${at.line}: the patch is not valid Unicode: column ${at.column} holds a lone UTF-16 surrogate, ` +
      'which UTF-8 cannot write (it would become U+FFFD); send the text as valid UTF-8',
    line: at.line,
  };
}

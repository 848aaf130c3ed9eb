import { leadingWhitespace } from './normalize.js';
import type { IndentShift, LineList } from './types.js';

/** A line that holds only whitespace: exempt from the uniform-indentation rule. */
export function isBlank(text: string): boolean {
  return text.trim() === '';
}

/**
 * The one leading-whitespace difference shared by every non-blank line pair (SPEC §2 pass 3), or
 * null when the lines differ otherwise. The pairs (file lines from `offset` on) must already be
 * equal once trimmed.
 */
export function uniformShift(
  fileLines: LineList,
  patchLines: readonly string[],
  offset = 0,
): IndentShift | null {
  let shift: IndentShift | null = null;
  for (let j = 0; j < patchLines.length; j++) {
    const patchLine = patchLines[j]!;
    const fileLine = fileLines.at(offset + j)!;
    if (isBlank(patchLine) && isBlank(fileLine)) continue;
    const pair = pairShift(leadingWhitespace(fileLine), leadingWhitespace(patchLine));
    if (!pair) return null;
    if (!shift) shift = pair;
    else if (shift.prefix !== pair.prefix || (shift.prefix !== '' && shift.side !== pair.side)) return null;
  }
  return shift && shift.prefix !== '' ? shift : null;
}

/** How one file line's indentation relates to the patch's: one is a prefix in front of the other. */
export function pairShift(fileIndent: string, patchIndent: string): IndentShift | null {
  if (fileIndent.endsWith(patchIndent)) {
    return { prefix: fileIndent.slice(0, fileIndent.length - patchIndent.length), side: 'file' };
  }
  if (patchIndent.endsWith(fileIndent)) {
    return { prefix: patchIndent.slice(0, patchIndent.length - fileIndent.length), side: 'patch' };
  }
  return null;
}

/** An added line re-indented by the shift; whitespace-only lines stay as written. */
export function reindent(text: string, shift: IndentShift): string {
  if (isBlank(text)) return text;
  if (shift.side === 'file') return shift.prefix + text;
  return text.startsWith(shift.prefix) ? text.slice(shift.prefix.length) : text;
}

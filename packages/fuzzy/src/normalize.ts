/**
 * Line normalisers of the passes of SPEC §2. "Whitespace" is ECMAScript's (what `String#trim`
 * removes): close to the Unicode White_Space the reference's Rust `trim` uses.
 */

/** The normalisations a line index can be built for. `indentation` searches the `trimmed` index. */
export type LineKey = 'exact' | 'trailing-whitespace' | 'trimmed' | 'lookalike';

// Look-alike table of SPEC §2 pass 5, exactly: dashes, single quotes, double quotes, spaces.
const LOOKALIKE_SINGLE: ReadonlyMap<number, string> = new Map<number, string>([
  ...range(0x2010, 0x2015).map((c) => [c, '-'] as const),
  [0x2212, '-'],
  ...range(0x2018, 0x201b).map((c) => [c, "'"] as const),
  ...range(0x201c, 0x201f).map((c) => [c, '"'] as const),
  [0x00a0, ' '],
  ...range(0x2002, 0x200a).map((c) => [c, ' '] as const),
  [0x202f, ' '],
  [0x205f, ' '],
  [0x3000, ' '],
  [0x2026, '...'],
  [0xfeff, ''],
]);

// Matches any character of the table; lets `foldLookalikes` return plain ASCII lines untouched.
const LOOKALIKE_CHAR = /[\u2010-\u2015\u2212\u2018-\u201f\u00a0\u2002-\u200a\u202f\u205f\u3000\u2026\ufeff]/g;

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let c = from; c <= to; c++) out.push(c);
  return out;
}

/** Replaces the look-alike characters of SPEC §2 pass 5 by their ASCII forms (U+FEFF is removed). */
export function foldLookalikes(text: string): string {
  return text.replace(LOOKALIKE_CHAR, (ch) => LOOKALIKE_SINGLE.get(ch.charCodeAt(0)) ?? ch);
}

/** The text a line is compared by under a given normalisation. */
export function normalizeLine(text: string, key: LineKey): string {
  switch (key) {
    case 'exact':
      return text;
    case 'trailing-whitespace':
      return text.trimEnd();
    case 'trimmed':
      return text.trim();
    case 'lookalike':
      return foldLookalikes(text).trim();
  }
}

/** The leading whitespace of a line (what `trimStart` removes). */
export function leadingWhitespace(text: string): string {
  return text.slice(0, text.length - text.trimStart().length);
}

/** A character `String#trim` removes: ECMAScript's WhiteSpace and LineTerminator. */
function isTrimmed(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Where `text.slice(from, to).trimEnd()` ends in `text`: a line of a large text trimmed without slicing it. */
export function trimmedEnd(text: string, from: number, to: number): number {
  let end = to;
  while (end > from && isTrimmed(text.charCodeAt(end - 1))) end--;
  return end;
}

/** Where `text.slice(from, to).trimStart()` starts in `text`. */
export function trimmedStart(text: string, from: number, to: number): number {
  let start = from;
  while (start < to && isTrimmed(text.charCodeAt(start))) start++;
  return start;
}

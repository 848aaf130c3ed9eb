import type { Line } from './lines.js';

/**
 * Text of an edit (str_replace `new_str`, a SEARCH/REPLACE block) as whole lines: one final line
 * break ends the last line rather than starting an empty one.
 */
export function textLines(text: string): string[] {
  return text.replace(/(?:\r\n|\n|\r)$/, '').split(/\r\n|\n|\r/);
}

/** Lines written by an edit, each with the file's ending. */
export function writtenLines(texts: readonly string[], ending: Line['ending']): Line[] {
  return texts.map((text) => ({ text, ending }));
}

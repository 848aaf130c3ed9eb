import { LineModel } from './line-model.js';

/**
 * The text of an edit (str_replace `old_str`/`new_str`, a SEARCH/REPLACE side, an `insert`) as the
 * lines it stands for: one final line break ends its last line rather than starting an empty one;
 * `\r\n`, `\n` and a bare `\r` all break lines. The empty text has no lines (`[]`); a lone line
 * break is one empty line (`['']`). A caller that gives the empty text another meaning (an insert
 * of one empty line) says so where it calls this.
 */
export function textLines(text: string): string[] {
  const lines = LineModel.of(text);
  const out = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) out[i] = lines.at(i)!;
  return out;
}

/** Ends with a line break. */
export function endsWithLineBreak(text: string): boolean {
  // Not a regex: `/[\r\n]$/` scans the whole of a large text.
  const last = text.charCodeAt(text.length - 1);
  return last === 10 || last === 13;
}

/** The text with every line break written as `ending`. */
export function withEnding(text: string, ending: string): string {
  return text.replace(/\r\n|\n|\r/g, ending);
}

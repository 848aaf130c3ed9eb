/**
 * The text of an edit (str_replace `old_str`/`new_str`, a SEARCH/REPLACE side, an `insert`) as the
 * lines it stands for: one final line break ends its last line rather than starting an empty one;
 * `\r\n`, `\n` and a bare `\r` all break lines. The empty text has no lines (`[]`); a lone line
 * break is one empty line (`['']`). A caller that gives the empty text another meaning (an insert
 * of one empty line) says so where it calls this.
 */
export function textLines(text: string): string[] {
  if (text === '') return [];
  const body = text.replace(/(?:\r\n|\n|\r)$/, '');
  return body.split(/\r\n|\n|\r/);
}

/** Ends with a line break. */
export function endsWithLineBreak(text: string): boolean {
  return /[\r\n]$/.test(text);
}

/** The text with every line break written as `ending`. */
export function withEnding(text: string, ending: string): string {
  return text.replace(/\r\n|\n|\r/g, ending);
}

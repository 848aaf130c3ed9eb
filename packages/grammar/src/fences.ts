/**
 * Code blocks as Aider reads them: markdown fences of three or more backticks or tildes (a longer
 * fence holds shorter ones as content, as CommonMark says), and the HTML-ish tags its prompts
 * offer (`<source>`, `<code>`, `<pre>`, `<codeblock>`, `<sourcecode>`), each alone on its line.
 */

export interface Fence {
  /** What closes the block: the fence's character and its least length, or the closing tag. */
  close: (line: string) => boolean;
  /** The words after a markdown fence (`python src/app.py`), empty for a tag. */
  info: string[];
}

// A tilde fence's info starts with no tilde, so that no shorter run of tildes can match: V8 would
// retry each of them against the rest of the line.
const MARKDOWN_OPEN = /^[ \t]{0,3}(?:(`{3,})([^`]*)|(~{3,})([^`~][^`]*)?)$/;
const TAG_OPEN = /^[ \t]*<(source|code|pre|codeblock|sourcecode)>[ \t]*$/;

/** The block a line opens, or null when it opens none. */
export function openingFence(line: string): Fence | null {
  const markdown = MARKDOWN_OPEN.exec(line);
  if (markdown !== null) {
    const marks = (markdown[1] ?? markdown[3])!;
    const info = (markdown[2] ?? markdown[4] ?? '').trim();
    // A backtick fence's info string holds no backtick; a tilde fence's may.
    const closing = new RegExp(`^[ \\t]{0,3}${marks[0] === '`' ? '`' : '~'}{${marks.length},}[ \\t]*$`);
    return { close: (l) => closing.test(l), info: info === '' ? [] : info.split(/\s+/) };
  }
  const tag = TAG_OPEN.exec(line);
  if (tag !== null) {
    const closing = new RegExp(`^[ \\t]*</${tag[1]}>[ \\t]*$`);
    return { close: (l) => closing.test(l), info: [] };
  }
  return null;
}

/** The longest run of backticks starting a line of `lines` (after up to three spaces). */
export function longestBacktickRun(lines: readonly string[]): number {
  let longest = 0;
  for (const line of lines) {
    const run = /^[ \t]{0,3}(`+)/.exec(line);
    if (run !== null) longest = Math.max(longest, run[1]!.length);
  }
  return longest;
}

/** A line that opens or closes a block: never a file's name. */
export function isFenceLine(line: string): boolean {
  return openingFence(line) !== null || /^[ \t]*(?:`{3,}|~{3,}|<\/\w+>)/.test(line);
}

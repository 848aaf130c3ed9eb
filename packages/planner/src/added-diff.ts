import { FILE_HEADERS_ONLY, formatPatch } from 'diff';
import type { DescribedChange } from './diff.js';

const NO_NEWLINE = '\\ No newline at end of file';

/**
 * Text that `decodeText` reads back as exactly its `\n`-separated lines: no CR (a line ending of
 * its own), no NUL (binary), no leading BOM (dropped), no surrogate (a lone one is re-encoded as
 * U+FFFD; paired ones are fine but rare enough to leave to the general path).
 */
const PLAIN_TEXT = /^(?!\uFEFF)[^\r\0\uD800-\uDFFF]*$/;

/** How many lines `text` has, its last one maybe unterminated. */
function lineCount(text: string): number {
  let count = text.endsWith('\n') ? 0 : 1;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) count++;
  return count;
}

/**
 * `describeChange(path, path, null, bytes)` of a new file whose bytes are the UTF-8 of `text`,
 * written straight from the text: one string for the diff, instead of decoding the bytes back
 * into line objects and diffing them against nothing (for a 10 MB patch of new files that was a
 * second and third copy of every line alive at once). Null when the text is not plain (see
 * `PLAIN_TEXT`) or empty: the caller then asks `describeChange`.
 */
export function describeAddedText(path: string, text: string): DescribedChange | null {
  if (text === '' || !PLAIN_TEXT.test(text)) return null;
  const lines = lineCount(text);
  const header = formatPatch(
    { oldFileName: '/dev/null', newFileName: path, oldHeader: undefined, newHeader: undefined, hunks: [] },
    FILE_HEADERS_ONLY,
  );
  const terminated = text.endsWith('\n');
  // split + join make one flat string (V8's replaceAll would build a rope of two parts per line).
  const body = `+${(terminated ? text.slice(0, -1) : text).split('\n').join('\n+')}\n`;
  return {
    diff: `${header}@@ -0,0 +1,${lines} @@\n${body}${terminated ? '' : `${NO_NEWLINE}\n`}`,
    additions: lines,
    deletions: 0,
  };
}

/**
 * Maps offsets of `body` to their 1-based line numbers (a `\n` belongs to the line it ends).
 * Offsets that mostly grow cost one newline search per line overall; a step back walks back
 * line by line, so it costs only the distance moved, never a rescan from the start.
 */
export function forwardLineCounter(body: string, firstLine: number): (offset: number) => number {
  // Invariant: `lineStart` starts line `line`, and `nextNewline` ends it (-1: the last line).
  let lineStart = 0;
  let line = firstLine;
  let nextNewline = body.indexOf('\n');
  return (offset) => {
    while (offset < lineStart) {
      nextNewline = lineStart - 1;
      lineStart = lineStart >= 2 ? body.lastIndexOf('\n', lineStart - 2) + 1 : 0;
      line--;
    }
    while (nextNewline !== -1 && nextNewline < offset) {
      line++;
      lineStart = nextNewline + 1;
      nextNewline = body.indexOf('\n', lineStart);
    }
    return line;
  };
}

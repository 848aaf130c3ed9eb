/** Maps non-decreasing offsets of `body` to their line numbers, counting newlines once overall. */
export function forwardLineCounter(body: string, firstLine: number): (offset: number) => number {
  let lineStart = 0;
  let line = firstLine;
  let nextNewline = body.indexOf('\n');
  return (offset) => {
    if (offset < lineStart) {
      lineStart = 0;
      line = firstLine;
      nextNewline = body.indexOf('\n');
    }
    while (nextNewline !== -1 && nextNewline < offset) {
      line++;
      lineStart = nextNewline + 1;
      nextNewline = body.indexOf('\n', lineStart);
    }
    return line;
  };
}

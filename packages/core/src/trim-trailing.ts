/**
 * `text` without the run of `chars` at its end. A loop, not `/[ \r]+$/`: V8 retries such a
 * pattern from every position of the run, so a line of 50,000 `\r` followed by one other
 * character takes seconds; this is one backward scan.
 */
export function trimTrailing(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

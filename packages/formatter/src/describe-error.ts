import type { EditError } from '@patchsmith/core';

/** The heading line of one error: code, where, and the message. */
export function errorHeading(error: EditError): string {
  const where: string[] = [];
  if (error.path !== undefined) where.push(error.path);
  if (error.chunk !== undefined) where.push(`chunk ${error.chunk + 1}`);
  if (error.line !== undefined) where.push(`patch line ${error.line}`);
  return `${error.code}${where.length ? ` (${where.join(', ')})` : ''}: ${shownMessage(error)}`;
}

/** The locator's own "nearest: lines a-b" line, which the details say again with the region's diff. */
const NEAREST_LINE = /\nnearest: lines \d+-\d+ \(similarity [\d.]+\)$/;

/** The message as a report shows it: without what its detail lines repeat. */
function shownMessage(error: EditError): string {
  return error.nearest ? error.message.replace(NEAREST_LINE, '') : error.message;
}

/** "3, 9" or "6 (2 times), 9": each candidate line once, with how often a match starts on it. */
function candidateLines(candidates: readonly number[]): string {
  const counts = new Map<number, number>();
  for (const line of candidates) counts.set(line, (counts.get(line) ?? 0) + 1);
  const parts = [...counts].map(([line, n]) => (n > 1 ? `${line} (${n} times)` : `${line}`));
  return parts.slice(0, 20).join(', ') + (parts.length > 20 ? `, … ${parts.length - 20} more` : '');
}

/** The indented detail lines of one error: candidates, and the nearest region with its diff. */
export function errorDetails(error: EditError): string[] {
  const lines: string[] = [];
  if (error.expected !== undefined && !error.message.includes(error.expected)) {
    lines.push(`expected: ${error.expected}`);
  }
  if (error.candidates?.length) lines.push(`candidates at lines ${candidateLines(error.candidates)}`);
  const near = error.nearest;
  if (near) {
    lines.push(
      `nearest region: lines ${near.startLine}-${near.endLine} (similarity ${Math.round(near.similarity * 100)}%)`,
    );
    for (const l of near.diff.replace(/\n$/, '').split('\n')) lines.push(`  ${l}`);
  }
  return lines;
}

/** Errors shown one by one; past these one line counts the rest (nobody reads 150,000 blocks; JSON lists them all). */
export const MAX_LISTED_ERRORS = 100;

/** The errors to show one by one, and the line that counts the others (null when every one is shown). */
export function listedErrors(errors: readonly EditError[]): {
  listed: readonly EditError[];
  rest: string | null;
} {
  if (errors.length <= MAX_LISTED_ERRORS) return { listed: errors, rest: null };
  const more = errors.length - MAX_LISTED_ERRORS;
  return { listed: errors.slice(0, MAX_LISTED_ERRORS), rest: `… and ${more} more error(s), not shown` };
}

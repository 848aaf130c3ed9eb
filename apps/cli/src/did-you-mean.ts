/**
 * The edit distance of two strings: Levenshtein's insertions, deletions and substitutions, plus a
 * swap of two neighbours as one edit (optimal string alignment), the commonest typo (`--jsno`).
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, substitution);
      const swapped = i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1];
      if (swapped) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate closest to `word`, when close enough to be a typo: at most a third of the
 * word's length away (and at least one edit allowed), the first of equals in the given order.
 */
export function closest(word: string, candidates: Iterable<string>): string | null {
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** ` (did you mean X?)` for the closest candidate, or nothing. */
export function didYouMean(word: string, candidates: Iterable<string>, show = (c: string) => c): string {
  const match = closest(word, candidates);
  return match === null ? '' : ` (did you mean ${show(match)}?)`;
}

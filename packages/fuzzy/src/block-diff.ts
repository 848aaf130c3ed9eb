/** Above this many cells the middle of two blocks is not aligned line by line but replaced whole. */
const MAX_CELLS = 1_000_000;

/**
 * Pairs of equal lines `[i, j]` of blocks `a` and `b`, in order: a longest common subsequence after
 * the common prefix and suffix are taken, bounded in work (SEARCH/REPLACE and str_replace blocks
 * are small; a huge one keeps only its common ends).
 */
export function equalLinePairs(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const pairs: Array<[number, number]> = [];
  for (let k = 0; k < head; k++) pairs.push([k, k]);
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  if (n > 0 && m > 0 && n * m <= MAX_CELLS) for (const pair of lcsPairs(a, b, head, n, m)) pairs.push(pair);
  for (let k = tail; k > 0; k--) pairs.push([a.length - k, b.length - k]);
  return pairs;
}

/** Classic dynamic-programming LCS of `a[off, off+n)` and `b[off, off+m)`. */
function lcsPairs(
  a: readonly string[],
  b: readonly string[],
  off: number,
  n: number,
  m: number,
): Array<[number, number]> {
  const width = m + 1;
  const table = new Int32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] =
        a[off + i] === b[off + j]
          ? table[(i + 1) * width + j + 1]! + 1
          : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[off + i] === b[off + j]) {
      pairs.push([off + i, off + j]);
      i++;
      j++;
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) i++;
    else j++;
  }
  return pairs;
}

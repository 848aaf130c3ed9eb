import { diffLines } from './line-diff.js';

/**
 * Pairs of equal lines `[i, j]` of blocks `a` and `b`, in order: the lines the line diff keeps
 * (a SEARCH/REPLACE or str_replace block's lines that survive into its replacement).
 */
export function equalLinePairs(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  for (const step of diffLines(a, b)) {
    if (step === '=') pairs.push([i++, j++]);
    else if (step === '-') i++;
    else j++;
  }
  return pairs;
}

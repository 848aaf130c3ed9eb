import type { FileIndex } from './file-index.js';
import { findBlock, type SearchRegion } from './find-block.js';
import { findIndented } from './find-indented.js';
import { type LineKey, normalizeLine } from './normalize.js';
import type { IndentShift, MatchPass } from './types.js';

/** The passes of SPEC §2 that compare lines through a normalisation, in order. */
export const LINE_PASSES: readonly (LineKey | 'indentation')[] = [
  'exact',
  'trailing-whitespace',
  'indentation',
  'trimmed',
  'lookalike',
];

/** What the deciding pass found: every start in the region, with its indentation shift for pass 3. */
export interface Candidates {
  pass: MatchPass;
  starts: number[];
  /** Parallel to `starts`, for the `indentation` pass only. */
  shifts?: IndentShift[];
}

/** Runs the passes in order; the first that finds any candidate in the region decides. */
export function findCandidates(
  file: FileIndex,
  block: readonly string[],
  region: SearchRegion,
): Candidates | null {
  for (const pass of LINE_PASSES) {
    const found =
      pass === 'indentation' ? indented(file, block, region) : findNormalized(file, block, region, pass);
    if (found) return found;
  }
  return null;
}

function findNormalized(
  file: FileIndex,
  block: readonly string[],
  region: SearchRegion,
  key: LineKey,
): Candidates | null {
  const keys = block.map((line) => normalizeLine(line, key));
  const starts = findBlock(file.table(key, keys), keys, region);
  return starts.length > 0 ? { pass: key, starts } : null;
}

/** Pass 3, as candidates. */
function indented(file: FileIndex, block: readonly string[], region: SearchRegion): Candidates | null {
  const { starts, shifts } = findIndented(file, block, region);
  return starts.length > 0 ? { pass: 'indentation', starts, shifts } : null;
}

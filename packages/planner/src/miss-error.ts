import type { EditError } from '@patchsmith/core';
import type { ChunkMiss } from '@patchsmith/fuzzy';

/** Misses of one plan that get a nearest-region search; later ones are reported without one. */
export const MAX_NEAREST_SEARCHES = 100;

/**
 * How many more misses of this plan may be searched for their nearest region. Each search is
 * bounded (SPEC §2), but their sum is not: 150,000 failing chunks would take minutes.
 */
export interface NearestBudget {
  left: number;
}

export function nearestBudget(): NearestBudget {
  return { left: MAX_NEAREST_SEARCHES };
}

/**
 * Candidates listed in one AMBIGUOUS error; the message gives the total. A chunk that matches each
 * of 200,000 `}` lines would otherwise carry them all, and 300 such chunks outgrow a string.
 */
export const MAX_LISTED_CANDIDATES = 1000;

/** Where a miss is reported: the file, the chunk's index, its patch line. */
interface MissPlace {
  path: string;
  chunk: number;
  line: number | undefined;
}

/**
 * A miss as the plan reports it. It was located with `nearest: budget.left > 0`: a searched
 * `NO_MATCH` spends one search, an unsearched one says why it names no nearest region.
 */
export function missError(miss: ChunkMiss, place: MissPlace, budget: NearestBudget): EditError {
  let message = miss.message;
  if (miss.code === 'NO_MATCH') {
    if (budget.left > 0) budget.left--;
    else
      message += `\n(nearest region not searched: over ${MAX_NEAREST_SEARCHES} chunks of this patch failed)`;
  }
  return {
    code: miss.code,
    message,
    path: place.path,
    chunk: place.chunk,
    line: place.line,
    ...(miss.candidates !== undefined && { candidates: miss.candidates.slice(0, MAX_LISTED_CANDIDATES) }),
    ...(miss.nearest !== undefined && { nearest: miss.nearest }),
  };
}

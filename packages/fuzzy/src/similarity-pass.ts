import type { ChunkLine } from '@patchsmith/core';
import { buildReplacement, isOld } from './chunk-lines.js';
import type { FileIndex } from './file-index.js';
import type { SearchRegion } from './find-block.js';
import { rankWindows } from './nearest-region.js';
import type { ChunkLocation } from './types.js';

/**
 * The opt-in last pass: the region's most similar window, when its line similarity reaches the
 * threshold and no other window scores as high (a tie is no basis for an edit). The region already
 * starts after any anchor.
 */
export function locateBySimilarity(
  file: FileIndex,
  lines: readonly ChunkLine[],
  region: SearchRegion,
  threshold: number,
): Omit<ChunkLocation, 'anchorLines'> | null {
  const old = lines.filter(isOld).map((l) => l.text);
  const [best, runnerUp] = rankWindows(file, old, region, true);
  if (!best || best.similarity < threshold) return null;
  if (runnerUp && runnerUp.similarity === best.similarity) return null;
  return {
    ok: true,
    start: best.start,
    length: old.length,
    replacement: buildReplacement(lines, best.start),
    pass: 'similarity',
    droppedTrailingEmptyLine: false,
    cursor: best.start + old.length,
  };
}

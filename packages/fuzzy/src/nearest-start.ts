/**
 * Line hints as SPEC §2 uses them: among the equal candidates of the deciding pass, the one a
 * hint makes strictly nearest wins; a hint never moves a unique match and never picks between
 * candidates at the same distance. Shared by chunks (`@@ -N`) and text edits (Roo's `:start_line:`).
 */

/** Index of the candidate strictly nearest to the 0-based `hint`; else the first when `firstOtherwise`, else null. */
export function pickFirstOrHint(
  starts: readonly number[],
  hint: number | undefined,
  firstOtherwise: boolean,
): number | null {
  if (starts.length === 1) return 0;
  if (hint !== undefined && starts.length > 1) {
    const nearest = strictlyNearest(starts, hint);
    if (nearest !== null) return nearest;
  }
  return firstOtherwise ? 0 : null;
}

/** Index of the one start closest to `target`, or null on a tie (a loop: there may be 200,000 starts). */
function strictlyNearest(starts: readonly number[], target: number): number | null {
  let best: number | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tied = false;
  for (let k = 0; k < starts.length; k++) {
    const distance = Math.abs(starts[k]! - target);
    if (distance < bestDistance) {
      best = k;
      bestDistance = distance;
      tied = false;
    } else if (distance === bestDistance) tied = true;
  }
  return tied ? null : best;
}

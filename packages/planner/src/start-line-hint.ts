import type { LinesChange } from './diff.js';

/**
 * Roo Code's `:start_line:` counts lines of the file before the reply (Roo shifts it by the lines
 * its earlier blocks added or removed), while each block is searched in the file as the earlier
 * ones left it: the hint is carried through those edits to the line it now names.
 */
export class StartLineHints {
  private readonly changes: LinesChange[] = [];

  /** Records an edit of the run, in the coordinates of the file as the edits before it left it. */
  record(change: LinesChange): void {
    this.changes.push(change);
  }

  /** The 0-based line of the file as it now is that a 1-based `startLine` of the original names. */
  now(startLine: number | undefined): number | undefined {
    if (startLine === undefined) return undefined;
    let line = startLine - 1;
    for (const { at, before, after } of this.changes) {
      const end = at + before.length;
      // Below the edit: shifted by the lines it added or removed; inside it: kept, within what it wrote.
      if (line >= end) line += after - before.length;
      else if (line >= at) line = Math.min(line, at + Math.max(0, after - 1));
    }
    return line;
  }
}

/**
 * Where a streamed unified diff's files end: before the header of the next file (`diff --git`, or
 * a `---` line followed by `+++`), once every hunk before it has all the lines its `@@` header
 * counts. Inside a hunk that still expects lines, `--- x` is a removed line, not a header.
 */

/** `@@ -a[,b] +c[,d] @@`: groups 1 and 2 are the old and new counts (absent: 1). */
const HUNK_HEADER = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;
const GIT_HEADER = /^diff --git /;
const OLD_FILE = /^--- \S/;
const NEW_FILE = /^\+\+\+ \S/;

export interface UnifiedUnits {
  /** Reads the next line (starting at `start` in the text); returns the offset a complete file ends at, or null. */
  next(line: string, start: number): number | null;
}

export function unifiedUnitEnds(): UnifiedUnits {
  let oldLeft = 0;
  let newLeft = 0;
  /** The previous line was a `---` line read outside any hunk: where it started. */
  let oldHeaderAt: number | null = null;
  /** A file section has begun since the last end: there is something to complete. */
  let started = false;
  /** A `diff --git` header was read and no hunk yet: its `---` / `+++` lines belong to it. */
  let gitHeaderOpen = false;

  const inHunk = () => oldLeft > 0 || newLeft > 0;

  /** Counts a hunk body line against what its header expects. */
  const countBodyLine = (line: string) => {
    const kind = line[0];
    if (kind === '-') oldLeft--;
    else if (kind === '+') newLeft--;
    else if (kind === ' ' || line === '' || line === '\r') {
      oldLeft--;
      newLeft--;
    } else if (kind !== '\\') {
      // Not a body line: the hunk is over, whatever its counts said.
      oldLeft = 0;
      newLeft = 0;
    }
  };

  return {
    next(line, start) {
      const headerAt = oldHeaderAt;
      oldHeaderAt = null;
      if (inHunk()) {
        countBodyLine(line);
        return null;
      }
      if (headerAt !== null && NEW_FILE.test(line)) return gitHeaderOpen ? null : begin(headerAt);
      if (GIT_HEADER.test(line)) {
        const ended = begin(start);
        gitHeaderOpen = true;
        return ended;
      }
      if (OLD_FILE.test(line)) {
        oldHeaderAt = start;
        return null;
      }
      const hunk = HUNK_HEADER.exec(line);
      if (hunk !== null) {
        gitHeaderOpen = false;
        oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
        newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      }
      return null;
    },
  };

  /** A new file starts at `at`: the one before it, if any, ends there. */
  function begin(at: number): number | null {
    const ended = started ? at : null;
    started = true;
    return ended;
  }
}

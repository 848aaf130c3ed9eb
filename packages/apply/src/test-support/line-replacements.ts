import type { EditScript } from '@patchsmith/core';

/** A Codex script that replaces one line (`oldLine(path)` by `newLine(path)`) in each of `paths`. */
export function lineReplacements(
  paths: readonly string[],
  oldLine: (path: string) => string,
  newLine: (path: string) => string,
): EditScript {
  return {
    format: 'codex',
    operations: paths.map((path) => ({
      kind: 'update',
      path,
      line: 1,
      chunks: [
        {
          anchors: [],
          endOfFile: false,
          line: 2,
          lines: [
            { kind: 'remove', text: oldLine(path), line: 2 },
            { kind: 'add', text: newLine(path), line: 3 },
          ],
        },
      ],
    })),
  };
}

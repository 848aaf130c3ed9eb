/**
 * `cd DIR && apply_patch <<'EOF'`: the patch's paths are relative to DIR, so they become DIR's
 * paths. A relative DIR must stay inside the root (checked with core's lexical path policy); an
 * absolute one is kept absolute, and the transaction's own policy then decides whether it lies
 * inside the root. A DIR the shell would expand (`~`, `$HOME`, globs) is not followed.
 */
import { posix } from 'node:path';
import { type EditError, type Operation, type Result, toTreePath } from '@patchsmith/core';
import { type Unwrapped, unclosedFolderLine } from './unwrap.js';

/** A made-up root: only whether DIR climbs above it matters. */
const PATCH_ROOT = { root: '/patch-root', realRoot: '/patch-root' };
/** Characters a shell expands before `cd` sees them. */
const EXPANDED = /[~$`*?[\]{}\\]/;

/** The script with the paths of the folder the unwrapped text `cd`-ed to, if any. */
export function inUnwrappedFolder<T extends { operations: Operation[] }>(
  script: T,
  unwrapped: Unwrapped,
): Result<T> {
  const open = unclosedFolderLine(unwrapped);
  if (open !== null) {
    return {
      ok: false,
      errors: [
        {
          code: 'PARSE_ERROR',
          message: `line ${open}: the heredoc of this 'cd … && apply_patch' is never closed: the patch was cut off, and where its paths lead is unknown`,
          line: open,
          expected: "the heredoc's delimiter alone on the last line",
        },
      ],
    };
  }
  if (unwrapped.folder === undefined) return { ok: true, value: script };
  return inFolder(script, unwrapped.folder, unwrapped.firstLine - 1);
}

export function inFolder<T extends { operations: Operation[] }>(
  script: T,
  folder: string,
  line: number,
): Result<T> {
  const refused = (code: EditError['code'], message: string): Result<T> => ({
    ok: false,
    errors: [{ code, message: `line ${line}: ${message}`, line }],
  });
  if (EXPANDED.test(folder)) {
    return refused(
      'PARSE_ERROR',
      `'cd ${folder}' needs the shell to expand it; give the folder as a plain path`,
    );
  }
  const normal = posix.normalize(folder);
  if (!posix.isAbsolute(normal)) {
    if (normal === '.') return { ok: true, value: script };
    const checked = toTreePath(normal, PATCH_ROOT);
    if (!checked.ok)
      return refused(checked.code, `'cd ${folder}': the folder ${checked.message.replace(/^path /, '')}`);
  }
  const moved = (path: string) => (posix.isAbsolute(path) ? path : posix.join(normal, path));
  for (const op of script.operations) {
    op.path = moved(op.path);
    if (op.kind === 'update') {
      if (op.movePath !== undefined) op.movePath = moved(op.movePath);
      if (op.otherPath !== undefined) op.otherPath = moved(op.otherPath);
    }
  }
  return { ok: true, value: script };
}

import { posix } from 'node:path';
import { climbsOut, type ErrorCode, namesGitFolder } from '@patchsmith/core';

export type ResolvedPath =
  | { ok: true; path: string }
  | { ok: false; code: Extract<ErrorCode, 'PATH_OUTSIDE_ROOT' | 'PATH_INVALID'>; message: string };

/** Relative, and every segment a name: no empty, `.` or `..` segment that resolving would change. */
function isPlainRelative(raw: string): boolean {
  if (raw.startsWith('/')) return false;
  for (const segment of raw.split('/'))
    if (segment === '' || segment === '.' || segment === '..') return false;
  return true;
}

function invalid(message: string): ResolvedPath {
  return { ok: false, code: 'PATH_INVALID', message };
}

/**
 * Lexical path policy (SPEC §3): `raw` is relative to `root` (an absolute path is allowed when it
 * lies inside the root); the answer is the canonical `/`-separated path relative to the root.
 * Symlinks are not looked at: the reader that touches the disk enforces that part.
 */
export function resolvePatchPath(root: string, raw: string): ResolvedPath {
  if (raw.includes('\0')) return invalid(`path holds a NUL byte: ${JSON.stringify(raw)}`);
  if (raw.trim() === '') return invalid('path is empty');
  // A trailing slash names a folder; an edit always names a file.
  if (raw.endsWith('/')) return invalid(`path names a folder, not a file: ${raw}`);
  // A plain relative path is already canonical: resolving it under any root gives it back.
  const relative = isPlainRelative(raw) ? raw : posix.relative(posix.resolve(root), posix.resolve(root, raw));
  if (climbsOut(relative)) {
    const absoluteRoot = posix.resolve(root);
    return {
      ok: false,
      code: 'PATH_OUTSIDE_ROOT',
      message: `path leads outside the root ${absoluteRoot}: ${raw}`,
    };
  }
  if (relative === '') return invalid(`path names the root folder itself: ${raw}`);
  if (relative.split('/').some(namesGitFolder)) return invalid(`path is inside a .git folder: ${raw}`);
  return { ok: true, path: relative };
}

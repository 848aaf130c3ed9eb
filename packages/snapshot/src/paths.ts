import { relative, sep } from 'node:path';
import { PatchsmithError, type PathRefusal, refusePath, toTreePath } from '@patchsmith/core';

// An absolute POSIX path or a Windows drive path.
const isAbsolutePath = (path: string) => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);
// A separator this platform's path functions would split on, though the path is `/`-separated.
const hasPlatformSeparator = (path: string) => sep === '\\' && path.includes('\\');

// Any absolute folder works as the base of a lexical check; this one is deep enough that a climb shows.
const LEXICAL_ROOTS = { root: '/patchsmith-tree', realRoot: '/patchsmith-tree' };

/**
 * Why `path` is not a canonical tree path (relative, `/`-separated, normalised, not into `.git/`,
 * core `toTreePath`), or null. Plans come canonical from the planner and manifests from a store
 * that may be hostile: both go through this before the snapshot reads or undo writes the disk.
 */
export function treePathRefusal(path: string): PathRefusal | null {
  if (isAbsolutePath(path)) return refusePath('PATH_OUTSIDE_ROOT', `path is absolute: ${path}`);
  if (hasPlatformSeparator(path)) return refusePath('PATH_INVALID', `path holds a backslash: ${path}`);
  const tree = toTreePath(path, LEXICAL_ROOTS);
  if (!tree.ok) return tree;
  if (tree.rel !== path) return refusePath('PATH_INVALID', `path is not canonical: ${JSON.stringify(path)}`);
  return null;
}

/** Throws the refusal of `treePathRefusal` (the snapshot's own line of defence, since it reads the disk). */
export function assertSafeRelativePath(path: string): void {
  const refusal = treePathRefusal(path);
  if (refusal !== null) throw new PatchsmithError(refusal.code, refusal.message, { path });
}

/** The root's location inside the work tree, `/`-separated, `''` when they are the same folder. */
export function rootPrefix(workTree: string, root: string): string {
  return relative(workTree, root).split(sep).join('/');
}

/** A root-relative path as a work-tree-relative one (what the snapshot tree stores). */
export function toStorePath(prefix: string, path: string): string {
  return prefix === '' ? path : `${prefix}/${path}`;
}

/** A work-tree-relative path as a path relative to the root, or null when it lies outside the root. */
export function fromStorePath(prefix: string, storePath: string): string | null {
  if (prefix === '') return storePath;
  return storePath.startsWith(`${prefix}/`) ? storePath.slice(prefix.length + 1) : null;
}

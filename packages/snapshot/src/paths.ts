import { relative, sep } from 'node:path';
import { PatchsmithError } from '@patchsmith/grammar';

// A segment that climbs out of the folder it is in.
const isParentSegment = (segment: string) => segment === '..';
// A segment that a canonical path never has: empty (`a//b`, a trailing slash) or `.`.
const isNonCanonicalSegment = (segment: string) => segment === '' || segment === '.';
// An absolute POSIX path or a Windows drive path.
const isAbsolutePath = (path: string) => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);

/**
 * Refuses a plan path that could make the snapshot read or record something outside the root
 * (SPEC §3 path rules). Plans come from the planner, which already canonicalised them; this is the
 * snapshot's own line of defence, since it reads the disk.
 */
export function assertSafeRelativePath(path: string): void {
  if (path.includes('\0'))
    throw new PatchsmithError('PATH_INVALID', `path holds a NUL byte: ${JSON.stringify(path)}`, { path });
  if (isAbsolutePath(path))
    throw new PatchsmithError('PATH_OUTSIDE_ROOT', `path is absolute: ${path}`, { path });
  const segments = path.split('/');
  if (segments.some(isParentSegment)) {
    throw new PatchsmithError('PATH_OUTSIDE_ROOT', `path leads outside the root: ${path}`, { path });
  }
  if (segments.some(isNonCanonicalSegment)) {
    throw new PatchsmithError('PATH_INVALID', `path is not canonical: ${JSON.stringify(path)}`, { path });
  }
  if (segments[0] === '.git')
    throw new PatchsmithError('PATH_INVALID', `path leads into .git/: ${path}`, { path });
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

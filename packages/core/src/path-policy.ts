import { isAbsolute, posix, relative, sep } from 'node:path';
import type { ErrorCode } from './errors.js';

/**
 * The lexical half of the path policy (SPEC §3): which names a plan may use at all. The other
 * half (where a name leads on disk, through symlinks) needs the file system and lives in
 * `@patchsmith/apply`; both answer with the same refusals.
 */

/** The config file, at the root: permission rules, and whether diagnostics run by default. */
export const CONFIG_FILE = '.patchsmith.json';
/** The private state folder at the root of a tree that is not in a git repository. */
export const PLAIN_STATE_DIR = '.patchsmith';

export interface PathRefusal {
  ok: false;
  code: ErrorCode;
  message: string;
}

export type TreePath = { ok: true; rel: string } | PathRefusal;

export const refusePath = (code: ErrorCode, message: string): PathRefusal => ({ ok: false, code, message });

// A relative path that climbs above its base: `..` itself or a first segment `..`; `..foo` is a name.
export function climbsOut(rel: string): boolean {
  if (posix.isAbsolute(rel) || isAbsolute(rel)) return true;
  return rel === '..' || rel.startsWith('../') || (sep === '\\' && rel.startsWith('..\\'));
}

// An absolute POSIX path as `path.resolve` gives it (no `.` or `..` segment, no `//`, no trailing
// `/` but the root's): for two such paths, being inside is a prefix test.
const isResolvedPosix = (path: string) =>
  sep === '/' &&
  path.startsWith('/') &&
  (path === '/' || (!path.endsWith('/') && !path.includes('//') && !/\/\.\.?(\/|$)/.test(path)));

/**
 * `child` is `parent` or lies below it; both absolute paths of this platform. Resolved POSIX paths
 * (what the transaction holds, many times per file) are compared as strings; anything else goes
 * through `path.relative`, which resolves both first.
 */
export function isInsidePath(child: string, parent: string): boolean {
  if (isResolvedPosix(child) && isResolvedPosix(parent)) {
    return child === parent || parent === '/' || child.startsWith(`${parent}/`);
  }
  const rel = relative(parent, child);
  return rel === '' || !climbsOut(rel);
}

/** `child` lies below `parent` and is not `parent` itself. */
export function isStrictlyInside(child: string, parent: string): boolean {
  if (isResolvedPosix(child) && isResolvedPosix(parent))
    return child !== parent && isInsidePath(child, parent);
  const rel = relative(parent, child);
  return rel !== '' && !climbsOut(rel);
}

// Code points HFS+ leaves out when it compares names (git's is_hfs_dotgit list): on a Mac,
// `.g\u200cit` opens `.git`.
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/**
 * The name a path segment opens on the file systems that alias names, so that a check of it holds
 * on each of them (a tree written on Linux is opened on a Mac or on Windows too): HFS+ drops
 * ignorable code points; NTFS drops trailing dots and spaces, and opens `name:stream` (an
 * alternate data stream: `.git::$INDEX_ALLOCATION` is the folder itself) as `name`.
 */
function aliasedName(segment: string): string {
  const name = segment.replace(HFS_IGNORABLE, '');
  const stream = name.indexOf(':');
  return withoutTrailingDotsAndSpaces(stream === -1 ? name : name.slice(0, stream));
}

// A loop, not `/[. ]+$/`: that regex retries from every dot of a long run, quadratic in its length.
function withoutTrailingDotsAndSpaces(name: string): string {
  let end = name.length;
  while (end > 0 && (name[end - 1] === '.' || name[end - 1] === ' ')) end--;
  return name.slice(0, end);
}

// An NTFS short (8.3) name for a long name that starts with `stem`: `GIT~1` is `.git` there.
// Compiled once per stem: a RegExp built per call cost 14 ms per 1,000 patch paths (cpu profile).
const shortNamePatterns = new Map<string, RegExp>();
function isShortNameOf(name: string, stem: string, extension = ''): boolean {
  if (!name.includes('~')) return false;
  const key = `${stem}.${extension}`;
  let pattern = shortNamePatterns.get(key);
  if (pattern === undefined) {
    pattern = new RegExp(`^${stem}~[1-9][0-9]*${extension ? `\\.${extension}` : ''}$`, 'i');
    shortNamePatterns.set(key, pattern);
  }
  return pattern.test(name);
}

/**
 * A path segment that names git's private folder on some file system: `.git` in any case, or an
 * alias of it (`.git.`, `.git::$INDEX_ALLOCATION`, `git~1`, `.g\u200cit`), as git itself refuses.
 */
export function namesGitFolder(segment: string): boolean {
  const name = aliasedName(segment).toLowerCase();
  return name === '.git' || isShortNameOf(name, 'git');
}

/** Where a tree's paths are measured from: the root as given (absolute) and its real path. */
export interface TreeRoots {
  root: string;
  realRoot: string;
}

/**
 * A plan path as the canonical `/`-separated path relative to the root, or why it may not be used:
 * a NUL byte, empty, the root itself or a `.git` segment are `PATH_INVALID`; a climb above the root
 * or an absolute path elsewhere is `PATH_OUTSIDE_ROOT`. Lexical only: symlinks are not looked at.
 */
export function toTreePath(raw: string, roots: TreeRoots): TreePath {
  if (raw.includes('\0')) return refusePath('PATH_INVALID', `path holds a NUL byte: ${JSON.stringify(raw)}`);
  if (raw.trim() === '') return refusePath('PATH_INVALID', 'path is empty');
  const base = isAbsolute(raw) && isInsidePath(raw, roots.realRoot) ? roots.realRoot : roots.root;
  const rel = posix.relative(base, posix.resolve(base, raw));
  if (climbsOut(rel)) return refusePath('PATH_OUTSIDE_ROOT', `path leads outside the root: ${raw}`);
  if (rel === '') return refusePath('PATH_INVALID', `path names the root folder itself: ${raw}`);
  if (rel.split('/').some(namesGitFolder)) {
    return refusePath('PATH_INVALID', `path is inside a .git folder: ${raw}`);
  }
  return { ok: true, rel };
}

/**
 * Why an edit may not write this root-relative path unless the host allows it (the config file
 * and the plain state folder protect themselves, so a patch cannot lift its own rules), or null.
 * Aliases of both count (`.patchsmith.json.`, `PATCHS~1`): see `aliasedName`.
 */
export function protectedPathReason(rel: string, caseInsensitive = false): string | null {
  const slash = rel.indexOf('/');
  const first = aliasedName(slash === -1 ? rel : rel.slice(0, slash));
  const name = caseInsensitive ? first.toLowerCase() : first;
  if (slash === -1 && (name === CONFIG_FILE || isShortNameOf(name, 'patchs', 'jso'))) {
    return `${rel} is patchsmith's own config`;
  }
  if (name === PLAIN_STATE_DIR || isShortNameOf(name, 'patchs')) {
    return `${rel} is inside patchsmith's private state folder`;
  }
  return null;
}

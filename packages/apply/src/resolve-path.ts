import { dirname, join, relative, resolve, sep } from 'node:path';
import { type ErrorCode, isInsidePath, toTreePath } from '@patchsmith/core';
import { errnoOf, lstatOrNull, type TransactionFs, type TransactionStats } from './fs.js';
import { IoFailure, io } from './io-failure.js';

/** Where the disk says a plan path leads. */
export interface ResolvedTarget {
  ok: true;
  /** The canonical path relative to the root, as given. */
  rel: string;
  kind: 'file' | 'missing' | 'directory';
  /** The directory entry the path names: its folders resolved, its last component not followed. */
  entry: string;
  /** Where content is read and written: `entry` with a last-component symlink followed. */
  target: string;
  /** Folders that do not exist yet on the way to `target`, outermost first. */
  missingDirs: string[];
  /** The deepest folder on the way to `target` that exists (real): `target`'s folder, unless that is missing. */
  existingDir: string;
  /** For a file: `target`'s stats, as the resolution found them (so its mode needs no second stat). */
  stats?: TransactionStats;
  /** For a file: `entry`'s own stats (not followed; the same as `stats` unless the path is a symlink). */
  entryStats?: TransactionStats;
  /**
   * For a missing path below a file (`a/b` where `a` is a file): that file's entry. Writing the
   * path needs the plan to remove it first (a file replaced by a folder, `replaced-entries.ts`).
   */
  blockedBy?: string;
  /** The path itself is a symbolic link, resolved without following it (`followLast: false`): `target` is `entry`. */
  link?: boolean;
}

export interface RefusedPath {
  ok: false;
  code: ErrorCode;
  message: string;
}

export type PathResolution = ResolvedTarget | RefusedPath;

export interface PathContext {
  fs: TransactionFs;
  /** The root as given, made absolute (for lexical checks of absolute paths). */
  root: string;
  /** The root with its own symlinks resolved: every real path must stay inside it. */
  realRoot: string;
  /** Folders the tree must never write into: the git dir and the private state dir. */
  privateDirs: string[];
  /**
   * What this call already learnt about the folders on the way to its paths (lstat, realpath, stat,
   * readlink by path): a thousand paths in one folder look that folder up once. One call's cache.
   */
  lookups?: Map<string, Promise<unknown>>;
}

/** The context with a fresh lookup cache, for one call that resolves many paths at about the same time. */
export function withLookupCache<C extends PathContext>(ctx: C): C {
  return { ...ctx, lookups: new Map() };
}

/** How one resolution looks a path up: through the call's cache, or straight from the disk. */
type Lookup = <T>(key: string, run: () => Promise<T>) => Promise<T>;

const fromDisk: Lookup = (_key, run) => run();

/** Looks up through the cache, sharing a lookup already under way (failures included). */
function cachedIn(cache: Map<string, Promise<unknown>>): Lookup {
  return <T>(key: string, run: () => Promise<T>) => {
    let pending = cache.get(key) as Promise<T> | undefined;
    if (pending === undefined) {
      pending = run();
      cache.set(key, pending);
    }
    return pending;
  };
}

/** An absolute path inside the real root as the `/`-separated root-relative name rules are matched on. */
export const treeName = (ctx: Pick<PathContext, 'realRoot'>, path: string) =>
  relative(ctx.realRoot, path).split(sep).join('/');

const refuse = (code: ErrorCode, message: string): RefusedPath => ({ ok: false, code, message });

/** Refuses a real path that left the root or entered private state; null when it is fine. */
function checkRealPath(ctx: PathContext, rel: string, real: string): RefusedPath | null {
  if (!isInsidePath(real, ctx.realRoot)) {
    return refuse('PATH_OUTSIDE_ROOT', `${rel} leads outside the root through a symbolic link (to ${real})`);
  }
  if (ctx.privateDirs.some((dir) => isInsidePath(real, dir))) {
    return refuse('PATH_INVALID', `${rel} leads into private state (${real})`);
  }
  return null;
}

/** The answer for a path whose component `index` does not exist under the real folder `dir`. */
function missingFrom(ctx: PathContext, rel: string, dir: string, segments: string[], index: number) {
  const missingDirs: string[] = [];
  let at = dir;
  for (const segment of segments.slice(index, -1)) {
    at = join(at, segment);
    missingDirs.push(at);
  }
  const target = join(dir, ...segments.slice(index));
  const refused = checkRealPath(ctx, rel, target);
  if (refused) return refused;
  return {
    ok: true,
    rel,
    kind: 'missing',
    entry: target,
    target,
    missingDirs,
    existingDir: dir,
  } satisfies ResolvedTarget;
}

/**
 * Resolves a plan path against the disk, one component at a time: a symlink (of a folder or of
 * the file itself) is followed only while it stays inside the root and out of private state;
 * with `followLast: false`, a symlink that is the path itself is the answer (`link`).
 * A path below a file is missing, `blockedBy` that file; a dangling symlink is `NOT_A_FILE`
 * (nothing to write through).
 */
export async function resolvePath(
  ctx: PathContext,
  raw: string,
  options: { followLast?: boolean } = {},
): Promise<PathResolution> {
  const lexical = toTreePath(raw, ctx);
  if (!lexical.ok) return lexical;
  const { rel } = lexical;
  const { fs } = ctx;
  const segments = rel.split('/');
  const folderLookup = ctx.lookups ? cachedIn(ctx.lookups) : fromDisk;
  let dir = ctx.realRoot;
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    const here = join(dir, segment);
    const last = index === segments.length - 1;
    // The path's own entry is always looked up afresh; only the folders above it are shared.
    const lookup = last ? fromDisk : folderLookup;
    const lst = await lookup(`lstat ${here}`, () => io('lstat', here, () => lstatOrNull(fs, here)));
    if (lst === null) return missingFrom(ctx, rel, dir, segments, index);
    let real = here;
    let st = lst;
    if (last && lst.isSymbolicLink() && options.followLast === false) {
      // The link itself is what the write replaces: where it points is not looked at.
      const refused = checkRealPath(ctx, rel, here);
      if (refused) return refused;
      const linkEntry = { entry: here, target: here, missingDirs: [], existingDir: dir };
      return { ok: true, rel, kind: 'file', ...linkEntry, stats: lst, entryStats: lst, link: true };
    }
    if (lst.isSymbolicLink()) {
      const followed = await followLink(ctx, rel, here, lookup);
      if (!followed.ok) return followed;
      real = followed.real;
      st = await lookup(`stat ${real}`, () => io('stat', real, () => fs.stat(real)));
    }
    const refused = checkRealPath(ctx, rel, real) ?? checkRealPath(ctx, rel, here);
    if (refused) return refused;
    if (st.isDirectory()) {
      if (last) {
        return {
          ok: true,
          rel,
          kind: 'directory',
          entry: here,
          target: real,
          missingDirs: [],
          existingDir: dir,
        };
      }
      dir = real;
      continue;
    }
    if (!st.isFile()) return refuse('NOT_A_FILE', `${rel} is not a regular file`);
    if (last) {
      const existingDir = dirname(real);
      return {
        ok: true,
        rel,
        kind: 'file',
        entry: here,
        target: real,
        missingDirs: [],
        existingDir,
        stats: st,
        entryStats: lst,
      };
    }
    // Below a file: missing, with the file in the way named (only a plan that removes it may write here).
    const below = missingFrom(ctx, rel, dir, segments, index);
    return below.ok ? { ...below, blockedBy: here } : below;
  }
  throw new Error('unreachable: a path has at least one segment');
}

/** Follows a symlink to its real path, refusing one that dangles or loops. */
async function followLink(
  ctx: PathContext,
  rel: string,
  link: string,
  lookup: Lookup,
): Promise<{ ok: true; real: string } | RefusedPath> {
  try {
    return { ok: true, real: await lookup(`realpath ${link}`, () => ctx.fs.realpath(link)) };
  } catch (error) {
    const code = errnoOf(error);
    if (code !== 'ENOENT' && code !== 'ELOOP' && code !== 'ENOTDIR')
      throw new IoFailure('realpath', link, error);
    const text = await lookup(`readlink ${link}`, () => io('readlink', link, () => ctx.fs.readlink(link)));
    const refused = checkRealPath(ctx, rel, resolve(dirname(link), text));
    if (refused) return refused;
    return refuse('NOT_A_FILE', `${rel} is a symbolic link that leads nowhere (${text})`);
  }
}

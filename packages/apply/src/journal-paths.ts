import { dirname, join, resolve } from 'node:path';
import { isInsidePath, isStrictlyInside, toTreePath } from '@patchsmith/core';
import type { RootContext } from './context.js';
import { errnoOf, lstatOrNull } from './fs.js';
import { IoFailure, io } from './io-failure.js';
import type { Journal } from './journal.js';
import type { NamedPath, StateProblem } from './journal-shape.js';

// realpath's answers for a folder that is not there (yet): look at its parent instead.
const isAbsentFolder = (error: unknown) =>
  ['ENOENT', 'ENOTDIR', 'ENAMETOOLONG'].includes(errnoOf(error) ?? '');

/** The real path of `dir`, or of its nearest existing ancestor, with the path it was asked for. */
async function realAncestor(
  ctx: RootContext,
  dir: string,
  cache: Map<string, Promise<{ asked: string; real: string }>>,
): Promise<{ asked: string; real: string }> {
  let pending = cache.get(dir);
  if (pending === undefined) {
    pending = ctx.fs.realpath(dir).then(
      (real) => ({ asked: dir, real }),
      (error: unknown) => {
        if (!isAbsentFolder(error) || dir === ctx.realRoot) throw new IoFailure('realpath', dir, error);
        return realAncestor(ctx, dirname(dir), cache);
      },
    );
    cache.set(dir, pending);
  }
  return pending;
}

/** Why a journal's tree path cannot be used, or null: it must be one the transaction could have written. */
async function treePathProblem(
  ctx: RootContext,
  rel: string,
  cache: Map<string, Promise<{ asked: string; real: string }>>,
): Promise<string | null> {
  const lexical = toTreePath(rel, { root: ctx.realRoot, realRoot: ctx.realRoot });
  if (!lexical.ok) {
    return lexical.code === 'PATH_OUTSIDE_ROOT'
      ? 'leads outside the root'
      : `is not a tree path (${lexical.message})`;
  }
  if (lexical.rel !== rel) return 'is not a normalised path relative to the root';
  const abs = join(ctx.realRoot, rel);
  if (!isStrictlyInside(abs, ctx.realRoot)) return 'leads outside the root';
  if (ctx.privateDirs.some((dir) => isInsidePath(abs, dir))) return 'leads into private state';
  // The transaction resolves every folder to its real path before journaling: a symlink on the way is not ours.
  const { asked, real } = await realAncestor(ctx, dirname(abs), cache);
  if (real !== asked) return `leads through a symbolic link (${displayRel(ctx, asked)} is ${real})`;
  return null;
}

const displayRel = (ctx: RootContext, abs: string) => abs.slice(ctx.realRoot.length + 1) || '.';

/** The first of a journal's tree paths that leads anywhere the transaction could not have written. */
export async function journalPathProblem(
  ctx: RootContext,
  paths: readonly NamedPath[],
): Promise<StateProblem | null> {
  const cache = new Map<string, Promise<{ asked: string; real: string }>>();
  for (const { field, path } of paths) {
    const reason = await treePathProblem(ctx, path, cache);
    if (reason !== null) return { field, reason };
  }
  return null;
}

/** Where a link leads once resolved as far as the disk goes, or the lexical target when it dangles. */
async function linkDestination(ctx: RootContext, link: string, base: string): Promise<string> {
  const text = await io('readlink', link, () => ctx.fs.readlink(link));
  const lexical = resolve(base, text);
  return ctx.fs.realpath(lexical).catch(() => lexical);
}

/**
 * A backup that is a symbolic link (the backup of a deleted link) is put back as a link: it must
 * lead inside the root from where it goes, as every link the transaction may delete does, or the
 * rollback would plant a way out of the tree.
 */
export async function backupProblem(ctx: RootContext, journal: Journal): Promise<StateProblem | null> {
  for (const [index, { backup, restoreTo }] of journal.entries.entries()) {
    if (backup === null || restoreTo === null) continue;
    const path = join(ctx.txnDir, backup);
    const stats = await io('lstat', path, () => lstatOrNull(ctx.fs, path));
    if (!stats?.isSymbolicLink()) continue;
    const destination = await linkDestination(ctx, path, dirname(join(ctx.realRoot, restoreTo)));
    if (
      !isInsidePath(destination, ctx.realRoot) ||
      ctx.privateDirs.some((dir) => isInsidePath(destination, dir))
    ) {
      return {
        field: `entries[${index}].backup`,
        reason: `is a symbolic link that leads out of the tree (to ${destination})`,
      };
    }
  }
  return null;
}

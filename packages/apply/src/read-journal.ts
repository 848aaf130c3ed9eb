import { join } from 'node:path';
import { isInsidePath, toTreePath } from '@patchsmith/core';
import type { RootContext } from './context.js';
import { isMissing, lstatOrNull } from './fs.js';
import { IoFailure, io } from './io-failure.js';
import type { Journal } from './journal.js';
import { backupProblem, journalPathProblem } from './journal-paths.js';
import { checkJournalShape, journalRelationsProblem } from './journal-shape.js';
import { stateInvalid } from './state-invalid.js';

/** More than any plan's journal: a bigger file was not written by us, and is not read into memory. */
const MAX_JOURNAL_BYTES = 256 * 1024 * 1024;

/**
 * The context of the root a journal belongs to: its `base` below the state dir's work tree, which
 * must be a real folder there (roots in sub-folders of one repository share its state dir, and a
 * journal's paths are relative to its own root). Null when `base` names no such folder.
 */
async function rootOfJournal(ctx: RootContext, base: string): Promise<RootContext | null> {
  const own = ctx.workTree;
  let root = own;
  if (base !== '') {
    const tree = toTreePath(base, { root: own, realRoot: own });
    if (!tree.ok || tree.rel !== base) return null;
    root = join(own, base);
    const real = await ctx.fs.realpath(root).catch(() => null);
    if (real !== root || ctx.privateDirs.some((dir) => isInsidePath(root, dir))) return null;
  }
  return root === ctx.realRoot ? ctx : { ...ctx, root, realRoot: root };
}

/**
 * The journal of an unfinished transaction (with the context of its root), or null when there is none. It is input like any
 * other (a cloned repository can carry one): a journal that is not exactly what this version
 * writes, or names a path outside the root, in private state or through a symlink, is refused
 * with `STATE_INVALID` naming the field, before anything is changed.
 */
export async function readJournal(ctx: RootContext): Promise<{ journal: Journal; ctx: RootContext } | null> {
  const invalid = (problem: string) => stateInvalid(ctx, 'the transaction journal', ctx.journalPath, problem);
  const stats = await io('lstat', ctx.journalPath, () => lstatOrNull(ctx.fs, ctx.journalPath));
  if (stats === null) return null;
  if (!stats.isFile()) throw invalid('it is not a regular file');
  if (stats.size > MAX_JOURNAL_BYTES) throw invalid('it is too large to be a journal');
  let text: string;
  try {
    text = await ctx.fs.readFile(ctx.journalPath, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw new IoFailure('readFile', ctx.journalPath, error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid(text.trim() === '' ? 'it is empty' : 'it is not JSON');
  }
  const shape = checkJournalShape(parsed);
  if (!shape.ok) throw invalid(`${shape.problem.field} ${shape.problem.reason}`);
  const own = await rootOfJournal(ctx, shape.journal.base);
  if (own === null) throw invalid('base names no folder of this work tree');
  const problem =
    (await journalPathProblem(own, shape.paths)) ??
    journalRelationsProblem(shape.journal) ??
    (await backupProblem(own, shape.journal));
  if (problem !== null) throw invalid(`${problem.field} ${problem.reason}`);
  return { journal: shape.journal, ctx: own };
}

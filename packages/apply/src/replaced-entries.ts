import { join, relative, sep } from 'node:path';
import { byDepth, type EditError, PatchsmithError, runAll } from '@patchsmith/core';
import type { PlannedWrite } from '@patchsmith/planner';
import type { CheckedWrite } from './checked-write.js';
import type { RootContext } from './context.js';
import { lstatOrNull, type TransactionFs } from './fs.js';
import { io } from './io-failure.js';
import type { Journal } from './journal.js';
import { rmdirIfEmpty } from './journal.js';

/**
 * A file replaced by a folder (`a` deleted, `a/b` written) or a folder by a file (`a/b` deleted,
 * `a` written) within one plan, as `git diff` prints them. The checks make sure the entry in the
 * way goes with the plan; the transaction then removes it before it writes what replaces it
 * (`clearingOf`), and its rollback puts it back as it was.
 */

/** Folder entries looked at before a replaced folder counts as holding too much to be checked. */
const MAX_ENTRIES = 10_000;

// The write puts a file where a folder is (lexically: the plan deletes something below it).
export const replacesFolder = (write: PlannedWrite, removed: ReadonlySet<string>): boolean =>
  write.after !== null &&
  write.before === null &&
  [...removed].some((path) => path.startsWith(`${write.path}/`));

/**
 * The first entry below `dir` that is not one of `removed`, or null. Folders are looked into; an
 * empty one is left over too: nothing in the plan would bring it back on a rollback.
 */
async function firstLeftover(
  fs: TransactionFs,
  dir: string,
  removed: ReadonlySet<string>,
): Promise<{ path: string; emptyFolder: boolean } | 'too many' | null> {
  const pending = [dir];
  let seen = 0;
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    const names = await io('readdir', folder, () => fs.readdir(folder));
    if (names.length === 0) return { path: folder, emptyFolder: true };
    for (const name of names) {
      const path = join(folder, name);
      if (++seen > MAX_ENTRIES) return 'too many';
      const stats = await io('lstat', path, () => lstatOrNull(fs, path));
      if (stats?.isDirectory()) pending.push(path);
      else if (stats !== null && !removed.has(path)) return { path, emptyFolder: false };
    }
  }
  return null;
}

const notAFile = (path: string, message: string): EditError => ({ code: 'NOT_A_FILE', message, path });

/**
 * What keeps a checked plan from replacing entries: a write below a file the plan does not remove,
 * or onto a folder (a real one, not a link to it) that holds anything the plan does not remove.
 */
export async function replacementProblems(
  ctx: RootContext,
  checked: readonly CheckedWrite[],
): Promise<EditError[]> {
  const removed = new Set(checked.filter((c) => c.write.after === null).map((c) => c.resolved.entry));
  const shown = (abs: string) => relative(ctx.realRoot, abs).split(sep).join('/');
  const problems: EditError[] = [];
  for (const { write, resolved } of checked) {
    const { blockedBy } = resolved;
    if (resolved.kind === 'missing' && blockedBy !== undefined && !removed.has(blockedBy)) {
      problems.push(
        notAFile(write.path, `cannot write ${write.path}: ${shown(blockedBy)} is a file, not a folder`),
      );
    }
    if (resolved.kind !== 'directory' || write.after === null) continue;
    if (resolved.entry !== resolved.target) {
      problems.push(notAFile(write.path, `cannot write ${write.path}: it is a symbolic link to a folder`));
      continue;
    }
    const leftover = await firstLeftover(ctx.fs, resolved.target, removed);
    if (leftover === null) continue;
    const what =
      leftover === 'too many'
        ? `more than ${MAX_ENTRIES} entries`
        : `${leftover.emptyFolder ? 'the empty folder ' : ''}${shown(leftover.path)}`;
    problems.push(
      notAFile(
        write.path,
        `cannot write ${write.path}: it is a folder holding ${what}, which the patch does not delete`,
      ),
    );
  }
  return problems;
}

/** How a transaction orders the writes that replace entries (journal paths, relative to the root). */
export interface Clearing {
  /** Entries (by index) whose removal makes room for another write: carried out before the others. */
  first: Set<number>;
  /** Folders to create once those are gone (where a file's name becomes a folder). */
  laterDirs: string[];
  /** Entries staged only once `laterDirs` exist. */
  laterStaged: Set<number>;
  /** Folders that a file replaces: removed once emptied by `first`. */
  replacedFolders: string[];
}

// `path` is `folder` or lies below it.
const atOrBelow = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** Which entries of a journal clear the way for others, and what waits for them. */
export function clearingOf(journal: Journal): Clearing {
  const first = new Set<number>();
  const laterDirs = new Set<string>();
  const replacedFolders = new Set<string>();
  journal.entries.forEach((entry, index) => {
    const removed = entry.remove;
    if (removed === null) return;
    const dirs = journal.createdDirs.filter((dir) => atOrBelow(dir, removed));
    const replaced = journal.entries.filter((e) => e.target !== null && removed.startsWith(`${e.target}/`));
    if (dirs.length === 0 && replaced.length === 0) return;
    first.add(index);
    for (const dir of dirs) laterDirs.add(dir);
    for (const e of replaced) replacedFolders.add(e.target!);
  });
  const laterStaged = new Set<number>();
  journal.entries.forEach((entry, index) => {
    if (entry.temp !== null && [...laterDirs].some((dir) => atOrBelow(entry.temp!, dir)))
      laterStaged.add(index);
  });
  return {
    first,
    laterDirs: journal.createdDirs.filter((dir) => laterDirs.has(dir)),
    laterStaged,
    replacedFolders: [...replacedFolders],
  };
}

/**
 * Removes the folders a file replaces, now that `first` took their files: every folder below them
 * deepest first, then the folder itself. One still there holds something new since the check.
 */
export async function removeReplacedFolders(ctx: RootContext, folders: readonly string[]): Promise<void> {
  const inTree = (rel: string) => join(ctx.realRoot, rel);
  const below: string[] = [];
  for (const folder of folders) {
    const pending = [inTree(folder)];
    for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
      below.push(relative(ctx.realRoot, dir).split(sep).join('/'));
      for (const name of await io('readdir', dir, () => ctx.fs.readdir(dir))) {
        const path = join(dir, name);
        if ((await io('lstat', path, () => lstatOrNull(ctx.fs, path)))?.isDirectory()) pending.push(path);
      }
    }
  }
  for (const level of byDepth(below, 'deepest-first')) {
    await runAll(level.map((dir) => () => rmdirIfEmpty(ctx.fs, inTree(dir))));
  }
  for (const folder of folders) {
    if ((await io('lstat', inTree(folder), () => lstatOrNull(ctx.fs, inTree(folder)))) !== null) {
      throw new PatchsmithError(
        'NOT_A_FILE',
        `cannot write ${folder}: the folder holds files the patch does not delete (added while it was applied)`,
        { path: folder },
      );
    }
  }
}

import { readdir } from 'node:fs/promises';
import { basename, dirname, join, posix, resolve } from 'node:path';
import type { EditError } from '@patchsmith/core';
import { closest, didYouMean } from './did-you-mean.js';
import type { Io } from './io.js';
import { printable } from './output.js';

/** A walk of the tree stops here: a hint is not worth reading a huge tree for. */
const MAX_ENTRIES = 20_000;
// Folders no edit means: version control, dependencies, our own state.
const SKIPPED = new Set(['.git', 'node_modules', '.patchsmith']);

/** The tree's file paths (`/`-separated, relative to `root`), symlinks not followed, bounded. */
export async function treePaths(root: string): Promise<string[]> {
  const paths: string[] = [];
  const folders = [''];
  while (folders.length > 0 && paths.length < MAX_ENTRIES) {
    const folder = folders.shift()!;
    const entries = await readdir(join(root, folder), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) folders.push(path);
      else if (entry.isFile()) paths.push(path);
    }
  }
  return paths;
}

/**
 * The tree path a missing one most likely meant: the same name in another folder when there is
 * exactly one such file (`a.ts` for `src/a.ts`), else the closest path by edit distance.
 */
export function likelyPath(missing: string, paths: readonly string[]): string | null {
  const sameName = paths.filter((p) => posix.basename(p) === posix.basename(missing));
  if (sameName.length === 1) return sameName[0]!;
  return closest(missing, paths);
}

// A refusal about a path that is not there.
const isMissingPath = (error: EditError) => error.code === 'FILE_NOT_FOUND' && error.path !== undefined;

/** `hint:` lines for the refusals that name a missing path, one per path the tree suggests. */
export async function missingPathHints(errors: readonly EditError[], root: string): Promise<string> {
  const missing = [...new Set(errors.filter(isMissingPath).map((e) => e.path!))];
  if (missing.length === 0) return '';
  const paths = await treePaths(root);
  return missing
    .map((path) => [path, likelyPath(path, paths)] as const)
    .filter((pair): pair is readonly [string, string] => pair[1] !== null)
    .map(([path, match]) => `hint: ${printable(path)} does not exist; did you mean ${printable(match)}?\n`)
    .join('');
}

/** ` (did you mean X?)` for an input file that cannot be read, from the names in its folder. */
export async function missingInputHint(file: string, io: Io): Promise<string> {
  const folder = dirname(file);
  const names = await readdir(resolve(io.cwd, folder)).catch(() => [] as string[]);
  const shown = (name: string) => printable(folder === '.' ? name : join(folder, name));
  return didYouMean(basename(file), names, shown);
}

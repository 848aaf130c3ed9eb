import { readFile } from 'node:fs/promises';
import { posix, resolve } from 'node:path';
import type { EditScript } from '@patchsmith/core';
import type { ReadVersions } from '@patchsmith/tool';
import { type Io, UsageError } from './io.js';
import { namedPaths } from './operation-paths.js';

/**
 * `--base-from PATH=FILE` (repeatable): the model read the file PATH (as the edit names it) when
 * it held what FILE holds now, so an edit of PATH made against that is merged if PATH changed since.
 * FILE is read relative to the working directory; PATH is checked like every edited path.
 */
export async function readVersionsFrom(
  flags: readonly string[] | undefined,
  io: Io,
): Promise<ReadVersions | undefined> {
  if (flags === undefined || flags.length === 0) return undefined;
  const versions: Record<string, { content: Uint8Array }> = {};
  for (const flag of flags) {
    const cut = flag.indexOf('=');
    if (cut <= 0 || cut === flag.length - 1)
      throw new UsageError(
        `--base-from takes PATH=FILE (the file as the model read it), not ${JSON.stringify(flag)}`,
      );
    const path = flag.slice(0, cut);
    const file = flag.slice(cut + 1);
    if (path in versions) throw new UsageError(`--base-from names ${path} twice`);
    try {
      versions[path] = { content: await readFile(resolve(io.cwd, file)) };
    } catch (error) {
      throw new UsageError(
        `--base-from ${path}=${file}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  return versions;
}

/** The first few of `paths`, and how many more. */
const shortList = (paths: string[]) =>
  paths.length <= 5 ? paths.join(', ') : `${paths.slice(0, 5).join(', ')} and ${paths.length - 5} more`;

/**
 * `--base-from PATH=FILE` for a PATH the edit does not touch would be ignored without a word: a
 * mistake in the command line (exit 2), found once the edit's paths are known.
 */
export function checkBasesTouched(script: EditScript, versions: ReadVersions | undefined): EditScript {
  if (versions === undefined) return script;
  const touched = new Set(script.operations.flatMap(namedPaths).map((path) => posix.normalize(path)));
  for (const path of Object.keys(versions)) {
    if (!touched.has(posix.normalize(path)))
      throw new UsageError(
        `--base-from ${path}=…: the edit does not touch ${path} (it touches ${shortList([...touched])}; paths are relative to the folder it is applied in)`,
      );
  }
  return script;
}

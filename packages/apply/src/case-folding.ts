import { basename, dirname, join } from 'node:path';
import { errnoOf, type TransactionFs } from './fs.js';
import { io } from './io-failure.js';

/** Whether a volume folds case, by real root: asked of the disk once per root and process. */
const folding = new Map<string, Promise<boolean>>();

// A name whose case can be swapped (it has a letter with an upper and a lower form).
const hasCase = (name: string) => name.toUpperCase() !== name.toLowerCase();

const swapCase = (name: string) =>
  [...name].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/** Where the volume is not asked (no folder name on the way has a letter): the platform's usual volume. */
const platformDefault = () => process.platform === 'darwin' || process.platform === 'win32';

async function askDisk(fs: TransactionFs, realRoot: string): Promise<boolean> {
  // The deepest folder on the way to the root whose name has a case: the root's volume answers for it.
  let dir = realRoot;
  while (!hasCase(basename(dir))) {
    if (dirname(dir) === dir) return platformDefault();
    dir = dirname(dir);
  }
  const swapped = join(dirname(dir), swapCase(basename(dir)));
  const [original, other] = await Promise.all([
    io('stat', dir, () => fs.stat(dir)),
    fs.stat(swapped).catch((error: unknown) => {
      if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return null;
      throw error;
    }),
  ]);
  return other !== null && other.dev === original.dev && other.ino === original.ino;
}

/**
 * Whether names on the root's volume fold case (`Secrets/x` is then the file `secrets/**`
 * protects): the root's folder looked up under a case-swapped name is the same folder.
 */
export function caseInsensitiveAt(fs: TransactionFs, realRoot: string): Promise<boolean> {
  let answer = folding.get(realRoot);
  if (answer === undefined) {
    answer = askDisk(fs, realRoot);
    folding.set(realRoot, answer);
    answer.catch(() => folding.delete(realRoot));
  }
  return answer;
}

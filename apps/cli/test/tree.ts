import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Every file (with its bytes) and folder below `dir`, keyed by relative `/` path; folders end in `/`. */
export async function readTree(dir: string): Promise<Map<string, string>> {
  const tree = new Map<string, string>();
  async function walk(rel: string) {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(join(dir, rel), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && rel === '') return;
      throw error;
    }
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        tree.set(`${path}/`, '');
        await walk(path);
      } else {
        tree.set(path, (await readFile(join(dir, path))).toString('base64'));
      }
    }
  }
  await walk('');
  return tree;
}

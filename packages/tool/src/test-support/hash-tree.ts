/** Every file and folder under a root with its mode and content hash, to prove a run changed nothing. */
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export async function hashTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(dir: string, prefix: string): Promise<void> {
    for (const entry of (await readdir(dir)).sort()) {
      const path = join(dir, entry);
      const info = await lstat(path);
      const name = prefix + entry;
      if (info.isDirectory()) {
        out[`${name}/`] = info.mode.toString(8);
        await walk(path, `${name}/`);
      } else {
        out[name] = `${info.mode.toString(8)} ${createHash('sha256')
          .update(await readFile(path))
          .digest('hex')}`;
      }
    }
  }
  await walk(root, '');
  return out;
}

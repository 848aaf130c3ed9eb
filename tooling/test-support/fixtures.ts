import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary project folder with the given files; `remove` deletes it. */
export async function tempProject(files: Record<string, string> = {}) {
  const root = await mkdtemp(join(tmpdir(), 'patchsmith-host-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return {
    root,
    read: (path: string) => readFile(join(root, path), 'utf8'),
    write: (path: string, content: string) => writeFile(join(root, path), content),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

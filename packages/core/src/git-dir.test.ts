import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { locateStateDir } from './index.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'patchsmith-gitdir-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A root whose `.git` file points at `target`, a folder with objects/ and refs/ but the given HEAD. */
async function rootWithHead(makeHead: (head: string) => Promise<void>) {
  const target = join(base, 'target');
  await mkdir(join(target, 'objects'), { recursive: true });
  await mkdir(join(target, 'refs'), { recursive: true });
  await makeHead(join(target, 'HEAD'));
  const root = join(base, 'root');
  await mkdir(root);
  await writeFile(join(root, '.git'), `gitdir: ${target}\n`);
  return root;
}

it('a HEAD that is a FIFO does not block: the .git file is not a repository', async () => {
  const root = await rootWithHead(async (head) => void execFileSync('mkfifo', [head]));
  const found = await locateStateDir(root);
  expect(found.gitDir).toBeNull();
  expect(found.brokenGitFile).not.toBeNull();
});

it('a HEAD linked to /dev/zero is never read to its (missing) end', async () => {
  const root = await rootWithHead((head) => symlink('/dev/zero', head));
  expect((await locateStateDir(root)).gitDir).toBeNull();
});

it('a real HEAD still makes it a repository', async () => {
  const root = await rootWithHead((head) => writeFile(head, 'ref: refs/heads/main\n'));
  expect((await locateStateDir(root)).gitDir).toBe(join(base, 'target'));
});

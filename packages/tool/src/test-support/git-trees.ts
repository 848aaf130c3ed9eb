/**
 * Real git at the edges of the replay and differential tests: run git, read a commit's tree, write
 * it out byte for byte, and compare a folder with a tree (contents and executable bits).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Git with no user or system configuration, so a developer's settings cannot change a diff. */
export function git(cwd: string, args: string[], input?: string | Buffer): Buffer {
  const r = spawnSync('git', ['-c', 'core.autocrlf=false', '-c', 'core.quotePath=true', ...args], {
    cwd,
    input,
    maxBuffer: 512 * 1024 * 1024,
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'patchsmith',
      GIT_AUTHOR_EMAIL: 'patchsmith@example.com',
      GIT_COMMITTER_NAME: 'patchsmith',
      GIT_COMMITTER_EMAIL: 'patchsmith@example.com',
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr?.toString()}`);
  return r.stdout;
}

export interface TreeEntry {
  mode: string;
  oid: string;
  path: string;
}

/** The blobs of a commit's tree (gitlinks and symlinks included, as git lists them). */
export function treeEntries(repo: string, commit: string): TreeEntry[] {
  const out = git(repo, ['ls-tree', '-r', '-z', '--full-tree', commit]).toString('utf8');
  return out
    .split('\0')
    .filter((l) => l !== '')
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode, , oid] = line.slice(0, tab).split(' ') as [string, string, string];
      return { mode, oid, path: line.slice(tab + 1) };
    });
}

/** Every blob's bytes, in one `git cat-file --batch`. */
function readBlobs(repo: string, oids: readonly string[]): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>();
  if (oids.length === 0) return blobs;
  const out = git(repo, ['cat-file', '--batch'], `${oids.join('\n')}\n`);
  let at = 0;
  while (at < out.length) {
    const headerEnd = out.indexOf(10, at);
    const [oid, , size] = out.subarray(at, headerEnd).toString().split(' ') as [string, string, string];
    const start = headerEnd + 1;
    blobs.set(oid, out.subarray(start, start + Number(size)));
    at = start + Number(size) + 1;
  }
  return blobs;
}

/** Writes a commit's tree into `dir`: exact bytes, executable bits as recorded. */
export async function materialize(
  repo: string,
  commit: string,
  dir: string,
  keep: (path: string) => boolean,
) {
  const entries = treeEntries(repo, commit).filter((e) => keep(e.path) && e.mode.startsWith('100'));
  const blobs = readBlobs(
    repo,
    entries.map((e) => e.oid),
  );
  for (const entry of entries) {
    const file = join(dir, entry.path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, blobs.get(entry.oid)!);
    await chmod(file, entry.mode === '100755' ? 0o755 : 0o644);
  }
}

/** git's blob id of some bytes. */
function blobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** Files under `dir` (skipping `skipDirs`) as `path -> "mode oid"`, mode as git records it. */
async function folderState(dir: string, keep: (path: string) => boolean, skipDirs: readonly string[]) {
  const state = new Map<string, string>();
  async function walk(rel: string): Promise<void> {
    for (const entry of await readdir(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skipDirs.includes(path)) await walk(path);
      } else if (keep(path)) {
        const full = join(dir, path);
        const mode = (await stat(full)).mode & 0o100 ? '100755' : '100644';
        state.set(path, `${mode} ${blobId(await readFile(full))}`);
      }
    }
  }
  await walk('');
  return state;
}

/** The differences between `dir` and a commit's tree: one line per path, empty when they match. */
export async function treeDifferences(
  repo: string,
  commit: string,
  dir: string,
  keep: (path: string) => boolean,
  skipDirs: readonly string[] = ['.patchsmith'],
): Promise<string[]> {
  const expected = new Map(
    treeEntries(repo, commit)
      .filter((e) => keep(e.path))
      .map((e) => [e.path, `${e.mode} ${e.oid}`]),
  );
  const actual = await folderState(dir, keep, skipDirs);
  const problems: string[] = [];
  for (const [path, want] of expected) {
    const got = actual.get(path);
    if (got !== want) problems.push(`${path}: expected ${want}, found ${got ?? 'nothing'}`);
  }
  for (const path of actual.keys()) if (!expected.has(path)) problems.push(`${path}: not in the tree`);
  return problems;
}

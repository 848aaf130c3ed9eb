import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import { dirname, join } from 'node:path';
import { hashBytes } from '@patchsmith/core';
import type { Plan, PlannedWrite } from '@patchsmith/planner';
import { afterAll } from 'vitest';

const created: string[] = [];
// Registered on the importing test file's root suite: every temp folder goes when the file is done.
afterAll(async () => {
  await Promise.all(created.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

/** A fresh temp folder, removed after the test file; `realpath` so paths compare equal on symlinked tmp dirs. */
export async function tempDir(prefix = 'patchsmith-snapshot-'): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(join(os.tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/** Runs the real git CLI in `cwd` and returns its stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    env: GIT_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function initRepo(dir: string): Promise<void> {
  git(dir, 'init', '-q', '-b', 'main');
}

export interface DiskFile {
  bytes: Uint8Array;
  mode: number;
}

/** Writes a file, creating its folders, with exact permission bits. */
export async function writeFile(
  root: string,
  path: string,
  bytes: Uint8Array | string,
  mode = 0o644,
): Promise<void> {
  const abs = join(root, path);
  await fs.mkdir(dirname(abs), { recursive: true });
  await fs.writeFile(abs, bytes);
  await fs.chmod(abs, mode);
}

/** Every file under `root` (not `.git`, not `.patchsmith`), path -> bytes and permission bits. */
export async function readTree(root: string): Promise<Map<string, DiskFile>> {
  const out = new Map<string, DiskFile>();
  async function walk(rel: string) {
    for (const entry of await fs.readdir(join(root, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (path === '.git' || path === '.patchsmith') continue;
      if (entry.isDirectory()) await walk(path);
      else {
        const abs = join(root, path);
        out.set(path, {
          bytes: new Uint8Array(await fs.readFile(abs)),
          mode: (await fs.stat(abs)).mode & 0o7777,
        });
      }
    }
  }
  await walk('');
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A plan as the planner would make it: the before state read from disk, the given after state. */
export async function planFor(root: string, after: ReadonlyMap<string, DiskFile | null>): Promise<Plan> {
  const writes: PlannedWrite[] = [];
  for (const [path, target] of after) {
    let before: PlannedWrite['before'] = null;
    try {
      const abs = join(root, path);
      const bytes = await fs.readFile(abs);
      before = { hash: hashBytes(bytes), mode: (await fs.stat(abs)).mode & 0o7777 };
    } catch {
      before = null;
    }
    writes.push({ path, before, after: target });
  }
  return { files: [], writes };
}

/** Carries out a plan's writes with plain fs calls (what the transaction package does for real). */
export async function applyWrites(root: string, writes: readonly PlannedWrite[]): Promise<void> {
  for (const write of writes) {
    const abs = join(root, write.path);
    if (write.after === null) await fs.rm(abs);
    else await writeFile(root, write.path, write.after.bytes, write.after.mode);
  }
}

/** Removes folders left empty under `root` (as a transaction does after deletes). */
export async function pruneEmptyDirs(root: string, rel = ''): Promise<boolean> {
  let empty = true;
  for (const entry of await fs.readdir(join(root, rel), { withFileTypes: true })) {
    const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (path === '.git' || path === '.patchsmith') {
      empty = false;
      continue;
    }
    if (entry.isDirectory() && (await pruneEmptyDirs(root, path))) await fs.rmdir(join(root, path));
    else empty = false;
  }
  return empty;
}

export const text = (s: string) => new TextEncoder().encode(s);

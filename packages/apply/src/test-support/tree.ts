import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { hashBytes } from '@patchsmith/core';
import type { Plan, PlannedWrite } from '@patchsmith/planner';

/** Files (relative path → content and mode) and extra (possibly empty) folders. */
export interface TreeSpec {
  files: Record<string, { bytes: Uint8Array; mode: number }>;
  dirs?: string[];
}

/** What a tree looks like on disk: file contents as hex with modes, symlinks, and every folder. */
export interface TreeShape {
  files: Record<string, string>;
  dirs: string[];
}

/** A fresh temporary root holding an empty `.git/` folder, so private state goes to `.git/patchsmith/`. */
export async function makeRoot(options: { git?: boolean } = {}): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'patchsmith-apply-')));
  if (options.git !== false) await fs.mkdir(join(root, '.git'));
  return root;
}

export async function removeRoot(root: string): Promise<void> {
  await fs.chmod(root, 0o755).catch(() => {});
  await fs.rm(root, { recursive: true, force: true });
}

/** Writes a tree spec into a root (with exact modes). */
export async function materialize(root: string, spec: TreeSpec): Promise<void> {
  for (const dir of spec.dirs ?? []) await fs.mkdir(join(root, dir), { recursive: true });
  for (const [path, { bytes, mode }] of Object.entries(spec.files)) {
    await fs.mkdir(dirname(join(root, path)), { recursive: true });
    await fs.writeFile(join(root, path), bytes);
    await fs.chmod(join(root, path), mode);
  }
}

/** Reads the shape of a tree, leaving out the top-level `.git/` (private state lives there). */
export async function shapeOf(root: string): Promise<TreeShape> {
  const files: Record<string, string> = {};
  const dirs: string[] = [];
  async function walk(dir: string, prefix: string) {
    for (const name of (await fs.readdir(dir)).sort()) {
      if (prefix === '' && name === '.git') continue;
      const abs = join(dir, name);
      const rel = prefix + name;
      const st = await fs.lstat(abs);
      if (st.isSymbolicLink()) files[rel] = `link:${await fs.readlink(abs)}`;
      else if (st.isDirectory()) {
        dirs.push(`${rel}/ ${(st.mode & 0o7777).toString(8)}`);
        await walk(abs, `${rel}/`);
      } else
        files[rel] =
          `${(st.mode & 0o7777).toString(8)} ${Buffer.from(await fs.readFile(abs)).toString('hex')}`;
    }
  }
  await walk(root, '');
  return { files, dirs };
}

/** The before hash and mode a planner would record for a spec file. */
export function beforeOf(spec: TreeSpec, path: string): PlannedWrite['before'] {
  const file = spec.files[path];
  return file ? { hash: hashBytes(file.bytes), mode: file.mode } : null;
}

/**
 * The tree a plan should leave: the writes applied to the spec, the folders new files need, and
 * the folders that deletes leave empty removed (as `git apply` does; never the root).
 */
export function expectedSpec(spec: TreeSpec, plan: Plan): TreeSpec {
  const files = { ...spec.files };
  const deleted: string[] = [];
  for (const write of plan.writes) {
    if (write.after) files[write.path] = { bytes: write.after.bytes, mode: write.after.mode };
    else {
      delete files[write.path];
      deleted.push(write.path);
    }
  }
  const dirs = new Set<string>(spec.dirs ?? []);
  for (const path of Object.keys(spec.files)) for (const dir of ancestors(path)) dirs.add(dir);
  const occupied = (dir: string) =>
    Object.keys(files).some((f) => f.startsWith(`${dir}/`)) || [...dirs].some((d) => d.startsWith(`${dir}/`));
  for (const path of deleted) {
    for (const dir of ancestors(path).reverse()) {
      if (dirs.has(dir) && !occupied(dir)) dirs.delete(dir);
      else break;
    }
  }
  return { files, dirs: [...dirs] };
}

/** The folders above a relative path, outermost first. */
function ancestors(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** Materializes a spec in a scratch root and reads its shape (modes of folders as mkdir leaves them). */
export async function shapeOfSpec(spec: TreeSpec): Promise<TreeShape> {
  const scratch = await makeRoot();
  try {
    await materialize(scratch, spec);
    return await shapeOf(scratch);
  } finally {
    await removeRoot(scratch);
  }
}

export const bytes = (text: string) => new TextEncoder().encode(text);

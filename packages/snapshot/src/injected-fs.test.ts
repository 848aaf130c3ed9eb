import * as nodeFs from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshot } from './create-snapshot.js';
import type { SnapshotFs } from './fs.js';
import { planUndo } from './plan-undo.js';
import { type DiskFile, git, initRepo, planFor, tempDir, text, writeFile } from './test-support/fixtures.js';

const MUTATING = ['writeFile', 'unlink', 'mkdir', 'rmdir', 'symlink', 'chmod'] as const;

/** node's fs, except that every mutating call outside `allowedDir` fails and is recorded. */
function guardedFs(allowedDir: string, refused: string[]): SnapshotFs {
  const promises: Record<string, unknown> = { ...nodeFs.promises };
  for (const name of MUTATING) {
    const real = (nodeFs.promises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[
      name
    ]!;
    promises[name] = async (path: string, ...rest: unknown[]) => {
      if (!String(path).startsWith(allowedDir + sep)) {
        refused.push(`${name} ${path}`);
        throw new Error(`refused ${name} ${path}`);
      }
      return real(path, ...rest);
    };
  }
  return { promises } as unknown as SnapshotFs;
}

describe('the injected fs', () => {
  it('is used for every call, and snapshot and undo mutate nothing outside .git/', async () => {
    const root = await tempDir();
    await initRepo(root);
    await writeFile(root, 'a/b.txt', 'b\n');
    const plan = await planFor(
      root,
      new Map<string, DiskFile | null>([['a/b.txt', { bytes: text('c\n'), mode: 0o644 }]]),
    );
    const refused: string[] = [];
    const fs = guardedFs(join(root, '.git'), refused);
    const snap = await createSnapshot({ root, plan, fs });
    expect(git(root, 'rev-parse', snap.ref).trim()).toBe(snap.commit);
    const undo = await planUndo({ root, fs, force: true });
    expect(undo.ok).toBe(true);
    expect(refused).toEqual([]);

    // And the guard does bite: a store outside .git/ cannot be written through it.
    const bare = await tempDir();
    await writeFile(bare, 'x.txt', 'x\n');
    const plan2 = await planFor(bare, new Map([['x.txt', null]]));
    await expect(createSnapshot({ root: bare, plan: plan2, fs })).rejects.toThrow(/refused/);
    expect(refused.length).toBeGreaterThan(0);
  });

  it('a read that fails for another reason than absence is IO_ERROR naming the path', async () => {
    const root = await tempDir();
    await writeFile(root, 'x.txt', 'x\n');
    const plan = await planFor(root, new Map([['x.txt', null]]));
    const fs = {
      promises: {
        ...nodeFs.promises,
        stat: async (path: string) => {
          if (path.endsWith('x.txt'))
            throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
          return nodeFs.promises.stat(path);
        },
      },
    } as unknown as SnapshotFs;
    await expect(createSnapshot({ root, plan, fs })).rejects.toMatchObject({
      code: 'IO_ERROR',
      details: { path: 'x.txt' },
    });
  });
});

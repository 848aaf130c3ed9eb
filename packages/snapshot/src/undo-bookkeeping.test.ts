import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshot } from './create-snapshot.js';
import { listSnapshots } from './list-snapshots.js';
import { markUndone } from './mark-undone.js';
import { planUndo } from './plan-undo.js';
import {
  applyWrites,
  type DiskFile,
  git,
  initRepo,
  planFor,
  readTree,
  tempDir,
  text,
  writeFile,
} from './test-support/fixtures.js';

/** Plans, snapshots and applies one change by hand; returns the snapshot. */
async function applyChange(root: string, path: string, content: string | null, message: string) {
  const after = new Map<string, DiskFile | null>([
    [path, content === null ? null : { bytes: text(content), mode: 0o644 }],
  ]);
  const plan = await planFor(root, after);
  const snap = await createSnapshot({ root, plan, message });
  await applyWrites(root, plan.writes);
  return snap;
}

async function repoWithFile(): Promise<string> {
  const root = await tempDir();
  await initRepo(root);
  await writeFile(root, 'f.txt', 'v0\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'init');
  return root;
}

describe('log and undo bookkeeping', () => {
  it('lists newest first; undo without an id takes the newest not yet undone, like a stack', async () => {
    const root = await repoWithFile();
    const first = await applyChange(root, 'f.txt', 'v1\n', 'first');
    const second = await applyChange(root, 'f.txt', 'v2\n', 'second');
    expect((await listSnapshots({ root })).map((s) => s.message)).toEqual(['second', 'first']);

    const undo2 = await planUndo({ root });
    if (!undo2.ok) throw new Error(undo2.message);
    expect(undo2.snapshot.id).toBe(second.id);
    await applyWrites(root, undo2.plan.writes);
    await markUndone({ root, id: second.id });
    expect(await fs.readFile(join(root, 'f.txt'), 'utf8')).toBe('v1\n');

    const listed = await listSnapshots({ root });
    expect(listed.map((s) => [s.id, s.undone !== null])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);

    const undo1 = await planUndo({ root });
    if (!undo1.ok) throw new Error(undo1.message);
    expect(undo1.snapshot.id).toBe(first.id);
    await applyWrites(root, undo1.plan.writes);
    await markUndone({ root, id: first.id });
    await markUndone({ root, id: first.id }); // twice: harmless
    expect(await fs.readFile(join(root, 'f.txt'), 'utf8')).toBe('v0\n');
    expect(await planUndo({ root })).toMatchObject({ ok: false, code: 'NO_SNAPSHOT' });
    expect(git(root, 'fsck', '--strict', '--no-progress')).toBe('');
    expect(git(root, 'cat-file', '-t', `refs/patchsmith/undone/${first.id}`).trim()).toBe('tag');
  });

  it('survives git gc and pack-refs: snapshots are read from packs and packed refs', async () => {
    const root = await repoWithFile();
    const snap = await applyChange(root, 'f.txt', 'v1\n', 'packed');
    git(root, 'gc', '--quiet', '--prune=now');
    git(root, 'pack-refs', '--all');
    expect(git(root, 'count-objects', '-v')).toMatch(/^count: 0$/m);
    expect((await listSnapshots({ root })).map((s) => s.id)).toEqual([snap.id]);
    const undo = await planUndo({ root });
    if (!undo.ok) throw new Error(undo.message);
    await applyWrites(root, undo.plan.writes);
    expect(await fs.readFile(join(root, 'f.txt'), 'utf8')).toBe('v0\n');
    await markUndone({ root, id: snap.id });
    expect((await listSnapshots({ root }))[0]?.undone).not.toBeNull();
  });

  it('a snapshot whose saved content vanished from the store is IO_ERROR, not a silent partial undo', async () => {
    const root = await repoWithFile();
    const snap = await applyChange(root, 'f.txt', 'v1\n', 'one');
    const blob = git(root, 'rev-parse', `${snap.ref}:files/f.txt`).trim();
    await fs.rm(join(root, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    await expect(planUndo({ root })).rejects.toMatchObject({ code: 'IO_ERROR', details: { path: 'f.txt' } });
  });

  it('an unknown or malformed id is NO_SNAPSHOT, and markUndone throws it', async () => {
    const root = await repoWithFile();
    await applyChange(root, 'f.txt', 'v1\n', 'one');
    expect(await planUndo({ root, id: '20000101-000000-0000' })).toMatchObject({
      ok: false,
      code: 'NO_SNAPSHOT',
    });
    expect(await planUndo({ root, id: '../../heads/main' })).toMatchObject({
      ok: false,
      code: 'NO_SNAPSHOT',
    });
    await expect(markUndone({ root, id: 'nope' })).rejects.toMatchObject({ code: 'NO_SNAPSHOT' });
  });

  it('an undo whose files are already back needs no writes', async () => {
    const root = await repoWithFile();
    const snap = await applyChange(root, 'f.txt', 'v1\n', 'one');
    await writeFile(root, 'f.txt', 'v0\n'); // restored by hand
    const refused = await planUndo({ root, id: snap.id });
    expect(refused).toMatchObject({ ok: false, code: 'STALE', changed: ['f.txt'] });
    const forced = await planUndo({ root, id: snap.id, force: true });
    expect(forced.ok && forced.plan.writes).toEqual([]);
  });

  it('a root below the work tree sees its paths relative to itself; a wider snapshot is refused there', async () => {
    const top = await repoWithFile();
    await writeFile(top, 'pkg/lib/a.ts', 'a\n');
    const sub = join(top, 'pkg');
    const before = await readTree(sub);
    const inner = await applyChange(sub, 'lib/a.ts', 'b\n', 'inner');
    expect(git(top, 'show', `${inner.ref}:files/pkg/lib/a.ts`)).toBe('a\n');
    expect((await listSnapshots({ root: sub }))[0]?.paths).toEqual(['lib/a.ts']);
    expect((await listSnapshots({ root: top }))[0]?.paths).toEqual(['pkg/lib/a.ts']);

    const undo = await planUndo({ root: sub });
    if (!undo.ok) throw new Error(undo.message);
    expect(undo.plan.writes.map((w) => w.path)).toEqual(['lib/a.ts']);
    await applyWrites(sub, undo.plan.writes);
    expect(await readTree(sub)).toEqual(before);
    await markUndone({ root: sub, id: inner.id });

    await applyChange(top, 'f.txt', 'v9\n', 'outer');
    expect((await listSnapshots({ root: sub }))[0]?.paths).toEqual(['../f.txt']);
    expect(await planUndo({ root: sub })).toMatchObject({ ok: false, code: 'PATH_OUTSIDE_ROOT' });
  });

  it('in a linked worktree the snapshot goes to the common repository', async () => {
    const main = await repoWithFile();
    const wt = join(await tempDir(), 'wt');
    git(main, 'worktree', 'add', '-q', wt);
    const statusBefore = git(wt, 'status', '--porcelain');
    const snap = await applyChange(wt, 'f.txt', 'wt edit\n', 'in worktree');
    expect(git(main, 'rev-parse', snap.ref).trim()).toBe(snap.commit);
    expect(git(wt, 'status', '--porcelain')).toBe(`${statusBefore} M f.txt\n`);
    expect(git(main, 'fsck', '--strict', '--no-progress')).toBe('');
    const undo = await planUndo({ root: wt });
    expect(undo.ok && undo.plan.writes.map((w) => w.path)).toEqual(['f.txt']);
  });

  it('refuses plan paths that lead out of the root or into .git, before writing anything', async () => {
    const root = await repoWithFile();
    const write = (path: string) => ({ path, before: null, after: { bytes: text('x'), mode: 0o644 } });
    await expect(createSnapshot({ root, plan: { writes: [write('../evil')] } })).rejects.toMatchObject({
      code: 'PATH_OUTSIDE_ROOT',
    });
    await expect(createSnapshot({ root, plan: { writes: [write('/etc/passwd')] } })).rejects.toMatchObject({
      code: 'PATH_OUTSIDE_ROOT',
    });
    await expect(createSnapshot({ root, plan: { writes: [write('.git/config')] } })).rejects.toMatchObject({
      code: 'PATH_INVALID',
    });
    await expect(createSnapshot({ root, plan: { writes: [write('a\0b')] } })).rejects.toMatchObject({
      code: 'PATH_INVALID',
    });
    expect(git(root, 'for-each-ref', 'refs/patchsmith')).toBe('');
  });
});

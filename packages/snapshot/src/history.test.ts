import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshot } from './create-snapshot.js';
import { forgetSnapshot } from './forget-snapshot.js';
import { gcSnapshots } from './gc-snapshots.js';
import { listSnapshots } from './list-snapshots.js';
import { markUndone } from './mark-undone.js';
import { planRedo } from './plan-redo.js';
import { planUndo } from './plan-undo.js';
import {
  applyWrites,
  type DiskFile,
  git,
  initRepo,
  planFor,
  tempDir,
  text,
  writeFile,
} from './test-support/fixtures.js';

async function applyChange(root: string, path: string, content: string) {
  const after = new Map<string, DiskFile | null>([[path, { bytes: text(content), mode: 0o644 }]]);
  const plan = await planFor(root, after);
  const snap = await createSnapshot({ root, plan, message: `write ${path}` });
  await applyWrites(root, plan.writes);
  return snap;
}

async function repo(): Promise<string> {
  const root = await tempDir();
  await initRepo(root);
  await writeFile(root, 'a.txt', 'a0\n');
  await writeFile(root, 'b.txt', 'b0\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'init');
  return root;
}

const refs = (root: string) =>
  git(root, 'for-each-ref', '--format=%(refname)', 'refs/patchsmith/').trim().split('\n');

describe('the undo history', () => {
  it('log states: applied, stale (naming the file), undone; undo passes over the stale one and says so', async () => {
    const root = await repo();
    const first = await applyChange(root, 'a.txt', 'a1\n');
    const second = await applyChange(root, 'b.txt', 'b1\n');
    await writeFile(root, 'b.txt', 'by hand\n');
    expect((await listSnapshots({ root })).map((s) => [s.id, s.state, s.changed])).toEqual([
      [second.id, 'stale', ['b.txt']],
      [first.id, 'applied', []],
    ]);
    const undo = await planUndo({ root });
    expect(undo).toMatchObject({ ok: true, snapshot: { id: first.id } });
    expect(undo.skipped).toEqual([
      {
        id: second.id,
        reason: 'stale',
        paths: ['b.txt'],
        message: `${second.id} (files changed since its apply: b.txt)`,
      },
    ]);
    // Nothing applicable left: the refusal names every snapshot passed over, and force still works.
    await writeFile(root, 'a.txt', 'also by hand\n');
    const stuck = await planUndo({ root });
    expect(stuck).toMatchObject({ ok: false, code: 'STALE' });
    expect(!stuck.ok && stuck.message).toContain(`no snapshot can be undone without --force: ${second.id}`);
    expect(await planUndo({ root, force: true })).toMatchObject({ ok: true, snapshot: { id: second.id } });
    await markUndone({ root, id: second.id });
    expect((await listSnapshots({ root }))[0]).toMatchObject({ id: second.id, state: 'undone' });
    expect(await planUndo({ root, id: second.id })).toMatchObject({ ok: false, code: 'STALE' });
  });

  it('forget drops a snapshot with its undone mark and redo record; an unknown id is NO_SNAPSHOT', async () => {
    const root = await repo();
    const snap = await applyChange(root, 'a.txt', 'a1\n');
    const undo = await planUndo({ root });
    if (!undo.ok) throw new Error(undo.message);
    await createSnapshot({ root, plan: undo.plan, redoOf: snap.id });
    await markUndone({ root, id: snap.id });
    expect(refs(root)).toEqual([
      `refs/patchsmith/redo/${snap.id}`,
      `refs/patchsmith/snapshots/${snap.id}`,
      `refs/patchsmith/undone/${snap.id}`,
    ]);
    expect(await planRedo({ root })).toMatchObject({ ok: false, code: 'STALE' }); // the undo was not applied here
    await forgetSnapshot({ root, id: snap.id });
    expect(refs(root)).toEqual(['']);
    await expect(forgetSnapshot({ root, id: snap.id })).rejects.toMatchObject({ code: 'NO_SNAPSHOT' });
    expect(await planRedo({ root })).toMatchObject({ ok: false, code: 'NO_SNAPSHOT' });
    // Only what the refs kept is left, dangling, for git gc: nothing is broken.
    expect(git(root, 'fsck', '--no-progress')).not.toMatch(/error|missing|broken/);
  });

  it('a hostile packed ref that climbs out of the prefix is never deleted (the branch survives)', async () => {
    await expect(forgetSnapshot({ root: await repo(), id: '../../heads/main' })).rejects.toMatchObject({
      code: 'NO_SNAPSHOT',
    });
    const root = await repo();
    await applyChange(root, 'a.txt', 'a1\n');
    const head = git(root, 'rev-parse', 'HEAD').trim();
    const branch = git(root, 'symbolic-ref', 'HEAD').trim();
    await fs.appendFile(
      join(root, '.git', 'packed-refs'),
      `${head} refs/patchsmith/snapshots/../../heads/main\n`,
    );
    const listed = await listSnapshots({ root });
    const hostile = listed.find((s) => s.state === 'invalid');
    expect(hostile?.id).toBe('../../heads/main');
    await expect(forgetSnapshot({ root, id: hostile!.id })).rejects.toMatchObject({ code: 'STATE_INVALID' });
    expect(git(root, 'rev-parse', branch).trim()).toBe(head);
  });

  it('gc keeps the newest N, drops only the old enough, and leaves the objects to git gc', async () => {
    const root = await repo();
    const ids: string[] = [];
    for (let i = 1; i <= 4; i++) ids.push((await applyChange(root, 'a.txt', `a${i}\n`)).id);
    expect(await gcSnapshots({ root })).toEqual({ removed: [], kept: 4 });
    const future = new Date(Date.now() + 86_400_000);
    expect(await gcSnapshots({ root, olderThanMs: 2 * 86_400_000, now: future })).toEqual({
      removed: [],
      kept: 4,
    });
    expect(await gcSnapshots({ root, keep: 2 })).toEqual({ removed: [ids[1], ids[0]], kept: 2 });
    expect(await gcSnapshots({ root, keep: 1, olderThanMs: 3_600_000, now: future })).toEqual({
      removed: [ids[2]],
      kept: 1,
    });
    expect((await listSnapshots({ root })).map((s) => s.id)).toEqual([ids[3]]);
    const unreachable = git(root, 'fsck', '--unreachable', '--no-progress');
    expect(unreachable).toMatch(/unreachable commit/);
    git(root, 'gc', '--quiet', '--prune=now');
    expect(git(root, 'fsck', '--unreachable', '--no-progress')).toBe('');
    expect(await planUndo({ root })).toMatchObject({ ok: true, snapshot: { id: ids[3] } });
  });
});

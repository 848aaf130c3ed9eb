import * as nodeFs from 'node:fs';
import { join } from 'node:path';
import { hashBytes } from '@patchsmith/core';
import type { PlannedWrite } from '@patchsmith/planner';
import { describe, expect, it } from 'vitest';
import { createSnapshot } from './create-snapshot.js';
import type { SnapshotFs } from './fs.js';
import { planUndo } from './plan-undo.js';
import { applyWrites, git, initRepo, tempDir, text, writeFile } from './test-support/fixtures.js';

/** node's fs, recording every path read or stat'ed below `root` (the store in `.git/` left out). */
function watchedFs(root: string, looked: string[]): SnapshotFs {
  const promises: Record<string, unknown> = { ...nodeFs.promises };
  for (const name of ['readFile', 'stat', 'lstat'] as const) {
    const real = nodeFs.promises[name] as (...args: unknown[]) => Promise<unknown>;
    promises[name] = (path: string, ...rest: unknown[]) => {
      if (String(path).startsWith(root) && !String(path).startsWith(join(root, '.git'))) {
        looked.push(`${name} ${String(path).slice(root.length + 1)}`);
      }
      return real(path, ...rest);
    };
  }
  return { promises } as unknown as SnapshotFs;
}

/** An update of `path` from `was` to `now`, as the planner writes it: the before bytes carried along. */
const update = (path: string, was: string, now: string): PlannedWrite => ({
  path,
  before: { hash: hashBytes(text(was)), mode: 0o644, bytes: text(was) },
  after: { bytes: text(now), mode: 0o644 },
});

async function repoWith(files: Record<string, string>): Promise<string> {
  const root = await tempDir();
  await initRepo(root);
  for (const [path, content] of Object.entries(files)) await writeFile(root, path, content);
  return root;
}

describe('a snapshot of a plan its transaction has checked', () => {
  it('records the bytes the plan carries without reading the files, and undo restores them', async () => {
    const root = await repoWith({ 'a.txt': 'a0\n', 'b/c.txt': 'c0\n' });
    const writes = [
      update('a.txt', 'a0\n', 'a1\n'),
      update('b/c.txt', 'c0\n', 'c1\n'),
      { path: 'new.txt', before: null, after: { bytes: text('n\n'), mode: 0o644 } },
    ];
    const looked: string[] = [];
    const snap = await createSnapshot({ root, plan: { writes }, fs: watchedFs(root, looked), checked: true });
    expect(looked).toEqual([]);
    expect(git(root, 'rev-parse', snap.ref).trim()).toBe(snap.commit);
    await applyWrites(root, writes);
    const undo = await planUndo({ root });
    expect(
      undo.ok && undo.plan.writes.map((w) => [w.path, w.after && new TextDecoder().decode(w.after.bytes)]),
    ).toEqual([
      ['a.txt', 'a0\n'],
      ['b/c.txt', 'c0\n'],
      ['new.txt', null],
    ]);
  });

  it('reads a write whose plan does not carry its bytes, and still refuses it STALE when it changed', async () => {
    const root = await repoWith({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const { bytes: _, ...withoutBytes } = update('b.txt', 'b0\n', 'b1\n').before!;
    const writes = [
      update('a.txt', 'a0\n', 'a1\n'),
      { ...update('b.txt', 'b0\n', 'b1\n'), before: withoutBytes },
    ];
    const looked: string[] = [];
    await createSnapshot({ root, plan: { writes }, fs: watchedFs(root, looked), checked: true });
    expect(looked.sort()).toEqual(['readFile b.txt', 'stat b.txt']);
    await writeFile(root, 'b.txt', 'changed\n');
    await expect(createSnapshot({ root, plan: { writes }, checked: true })).rejects.toMatchObject({
      code: 'STALE',
      details: { path: 'b.txt' },
    });
  });

  it('without `checked`, the bytes the plan carries are compared with the disk (STALE when it changed)', async () => {
    const root = await repoWith({ 'a.txt': 'changed since\n' });
    const error = await createSnapshot({ root, plan: { writes: [update('a.txt', 'a0\n', 'a1\n')] } }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'STALE', details: { path: 'a.txt' } });
    expect(git(root, 'for-each-ref', 'refs/patchsmith')).toBe('');
  });

  it('bytes that are not those of the hash fail the read-back: no snapshot, no ref', async () => {
    const root = await repoWith({ 'a.txt': 'a0\n' });
    const lying = { ...update('a.txt', 'a0\n', 'a1\n') };
    lying.before = { ...lying.before!, bytes: text('not what was hashed\n') };
    await expect(createSnapshot({ root, plan: { writes: [lying] }, checked: true })).rejects.toMatchObject({
      code: 'STATE_INVALID',
      message: expect.stringContaining('no snapshot could be recorded'),
    });
    expect(git(root, 'for-each-ref', 'refs/patchsmith')).toBe('');
  });
});

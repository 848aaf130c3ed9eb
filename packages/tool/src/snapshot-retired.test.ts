import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listSnapshots } from '@patchsmith/snapshot';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { runEdit } from './run-edit.js';
import { undoLast } from './undo.js';

/**
 * The next rename onto this path fails with EIO, once (the rollback's goes through). The
 * transaction's fs is node:fs/promises; the snapshot store's is not.
 */
const failing = vi.hoisted(() => ({ renameOnto: null as string | null }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const rename = (from: string, to: string) => {
    if (to !== failing.renameOnto) return fs.rename(from, to);
    failing.renameOnto = null;
    return Promise.reject(Object.assign(new Error(`EIO: injected, rename '${from}'`), { code: 'EIO' }));
  };
  return { ...fs, rename, default: { ...fs, rename } };
});

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'patchsmith-retired-')));
  await writeFile(join(root, 'a.txt'), 'one\n');
  await writeFile(join(root, 'b.txt'), 'two\n');
});
afterEach(async () => {
  failing.renameOnto = null;
  await rm(root, { recursive: true, force: true });
});

const patch = {
  kind: 'patch',
  text: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-two\n+TWO\n*** End Patch',
} as const;

it('the snapshot of an apply that fails after it was taken is retired: undo does not restore it', async () => {
  failing.renameOnto = join(root, 'b.txt');
  const report = await runEdit(patch, { root, snapshot: true });
  expect(report).toMatchObject({ ok: false, snapshot: null, errors: [{ code: 'IO_ERROR' }] });
  expect(report.errors[0]!.message).toContain('rolled back');
  expect([await readFile(join(root, 'a.txt'), 'utf8'), await readFile(join(root, 'b.txt'), 'utf8')]).toEqual([
    'one\n',
    'two\n',
  ]);
  // The snapshot was recorded (the checks had passed), then marked undone when the apply failed.
  const [taken, ...more] = await listSnapshots({ root });
  expect(more).toEqual([]);
  expect(taken?.undone).not.toBeNull();
  expect(await undoLast({ root })).toMatchObject({ ok: false, errors: [{ code: 'NO_SNAPSHOT' }] });

  // The same patch without the fault applies, and its own snapshot is the one undo restores.
  const applied = await runEdit(patch, { root, snapshot: true });
  expect(applied).toMatchObject({ ok: true, snapshot: expect.any(String) });
  expect(await undoLast({ root })).toMatchObject({ ok: true, undone: applied.snapshot });
  expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe('two\n');
});

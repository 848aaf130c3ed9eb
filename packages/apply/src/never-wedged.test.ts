import * as fs from 'node:fs/promises';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plan } from '@patchsmith/planner';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { discardTransaction } from './discard-transaction.js';
import { recoverTransaction } from './recover-transaction.js';
import { faultyFs } from './test-support/faulty-fs.js';
import {
  beforeOf,
  bytes,
  makeRoot,
  materialize,
  removeRoot,
  shapeOf,
  type TreeSpec,
} from './test-support/tree.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await removeRoot(root);
});

const spec: TreeSpec = { files: { 'a.txt': { bytes: bytes('a\n'), mode: 0o644 } } };

async function setup(git = true): Promise<string> {
  const root = await makeRoot({ git });
  roots.push(root);
  await materialize(root, spec);
  return root;
}

/** Everything in the root, private state included, so leftovers in `.git/` show too. */
async function everything(root: string) {
  return (await fs.readdir(root, { recursive: true })).sort();
}

const add = (path: string, text = 'new\n'): Plan => ({
  files: [],
  writes: [{ path, before: null, after: { bytes: bytes(text), mode: 0o644 } }],
});
const update = (text: string): Plan => ({
  files: [],
  writes: [{ path: 'a.txt', before: beforeOf(spec, 'a.txt'), after: { bytes: bytes(text), mode: 0o644 } }],
});

// ~4200 characters in 42 folders: longer than PATH_MAX once joined to the root.
const tooLong = `${Array.from({ length: 42 }, (_, i) => `segment-${String(i).padStart(2, '0')}-${'x'.repeat(88)}`).join('/')}/f.txt`;

describe('recovery never wedges', () => {
  it.each([
    ['in a repository', true],
    ['in a plain folder', false],
  ])(
    'an Add longer than PATH_MAX fails, leaves the root exactly as before, and the next apply works (%s)',
    async (_, git) => {
      const root = await setup(git);
      const before = await everything(root);
      const result = await applyPlan(add(tooLong), { root });
      expect(result).toMatchObject({ ok: false, errors: [{ code: 'IO_ERROR' }] });
      if (!result.ok) {
        expect(result.errors[0]!.message).toMatch(/ENAMETOOLONG/);
        expect(result.errors[0]!.message).toMatch(/nothing was changed \(rolled back\)$/);
        expect(result.errors[0]!.message).not.toMatch(/patchsmith-tmp/);
      }
      expect(await everything(root)).toEqual(before);
      expect(await recoverTransaction(root)).toEqual({ recovered: false, paths: [] });
      expect(await applyPlan(update('a2\n'), { root })).toEqual({ ok: true });
      expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('a2\n');
    },
  );

  it('a failure before the first write of the tree leaves no folder, no journal and no state dir', async () => {
    const root = await setup();
    const before = await everything(root);
    // Fail each call up to (and including) the journal's rename: nothing of the tree was written yet.
    const probe = faultyFs();
    await applyPlan(add('n/e/w.txt'), { root: await setup(), fs: probe.fs });
    const journalDone = probe.log.findIndex(
      (call) => call.startsWith('rename') && call.includes('journal.json'),
    );
    for (let failAt = 1; failAt <= journalDone + 2; failAt++) {
      const result = await applyPlan(add('n/e/w.txt'), { root, fs: faultyFs({ failAt }).fs });
      expect(result.ok, `call ${failAt}`).toBe(false);
      expect(await everything(root), `call ${failAt}`).toEqual(before);
    }
  });

  it('a rollback that cannot finish says what is left and how to clear it; recover --discard clears it', async () => {
    const root = await setup();
    // Fail the commit, then every unlink and rename of the rollback.
    const probe = faultyFs();
    await applyPlan(update('a2\n'), { root: await setup(), fs: probe.fs });
    const commit = probe.log.findIndex((call) => call.startsWith('unlink') && call.endsWith('journal.json'));
    let failing = false;
    const stuck = faultyFs({
      before: async (call, path) => {
        if (call === 'unlink' && path.endsWith('journal.json')) failing = true;
        if (failing && (call === 'unlink' || call === 'rename')) {
          throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        }
      },
    });
    const result = await applyPlan(update('a2\n'), { root, fs: stuck.fs });
    expect(commit).toBeGreaterThan(0);
    expect(result).toMatchObject({ ok: false, errors: [{ code: 'IO_ERROR' }] });
    if (!result.ok) {
      const { message } = result.errors[0]!;
      expect(message).toMatch(/rolling back failed too: (unlink|rename) failed on a\.txt: EACCES/);
      expect(message).toMatch(
        /the journal and the backups are kept in \.git\/patchsmith\/txn and a\.txt may still differ/,
      );
      expect(message).toMatch(/`patchsmith recover --discard` drops the journal/);
      expect(message).not.toMatch(/patchsmith-tmp/);
    }
    // The tree is half applied; a person who chose to keep it drops the transaction.
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('a2\n');
    expect(await discardTransaction(root)).toEqual({ discarded: true });
    expect(await everything(root)).toEqual(['.git', 'a.txt']);
    expect(await recoverTransaction(root)).toEqual({ recovered: false, paths: [] });
    expect(await discardTransaction(root)).toEqual({ discarded: false });
  });

  it('recover reports a rollback it cannot finish the same way, naming no temporary file', async () => {
    const root = await setup();
    const probe = faultyFs();
    await applyPlan(update('a2\n'), { root: await setup(), fs: probe.fs });
    const firstTreeRename = probe.log.findIndex((c) => c.startsWith('rename') && !c.includes('/.git/'));
    await applyPlan(update('a2\n'), { root, fs: faultyFs({ failAt: firstTreeRename + 1, kill: true }).fs });
    const denied = faultyFs({
      before: async (call, path) => {
        if (call === 'unlink' && !path.includes('/.git/'))
          throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
    });
    const error = await recoverTransaction(root, { fs: denied.fs }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'IO_ERROR' });
    expect((error as Error).message).toMatch(
      /^an interrupted apply could not be rolled back: unlink failed on a\.txt: EACCES/,
    );
    expect((error as Error).message).not.toMatch(/patchsmith-tmp/);
    expect(await recoverTransaction(root)).toEqual({ recovered: true, paths: ['a.txt'] });
    expect(await shapeOf(root)).toEqual({
      files: { 'a.txt': `644 ${Buffer.from('a\n').toString('hex')}` },
      dirs: [],
    });
  });
});

it('a journal written for a sub-folder root is rolled back there, whichever root of the repository recovers', async () => {
  const repo = await setup();
  await materialize(join(repo, 'sub'), spec);
  const sub = join(repo, 'sub');
  const probe = faultyFs();
  const scratch = await setup();
  await materialize(join(scratch, 'sub'), spec);
  await applyPlan(update('sub edit\n'), { root: join(scratch, 'sub'), fs: probe.fs });
  const firstTreeRename = probe.log.findIndex((c) => c.startsWith('rename') && !c.includes('/.git/'));
  await applyPlan(update('sub edit\n'), {
    root: sub,
    fs: faultyFs({ failAt: firstTreeRename + 2, kill: true }).fs,
  });
  expect(await readFile(join(sub, 'a.txt'), 'utf8')).toBe('sub edit\n');
  // The repository's root shares the state dir: recovering from there restores sub/a.txt, not a.txt.
  await writeFile(join(repo, 'a.txt'), 'the top a, edited since\n');
  expect(await recoverTransaction(repo)).toEqual({ recovered: true, paths: ['a.txt'] });
  expect(await readFile(join(sub, 'a.txt'), 'utf8')).toBe('a\n');
  expect(await readFile(join(repo, 'a.txt'), 'utf8')).toBe('the top a, edited since\n');
});

describe('discardTransaction', () => {
  it('drops a refused journal and its backups without restoring, and the next apply works', async () => {
    const root = await setup();
    const txn = join(root, '.git', 'patchsmith', 'txn');
    await fs.mkdir(txn, { recursive: true });
    await writeFile(join(txn, 'journal.json'), '{"version": 1, "entries": "../../x"}');
    await writeFile(join(txn, 'backup-0'), 'old\n');
    await fs.mkdir(join(txn, 'odd', 'deeper'), { recursive: true });
    await expect(recoverTransaction(root)).rejects.toMatchObject({ code: 'STATE_INVALID' });
    expect(await discardTransaction(root)).toEqual({ discarded: true });
    expect(await everything(root)).toEqual(['.git', 'a.txt']);
    expect(await applyPlan(update('a2\n'), { root })).toEqual({ ok: true });
  });

  it('never deletes outside the txn folder: a txn link is removed, not followed; a state dir link is refused', async () => {
    const root = await setup(false);
    const outside = await makeRoot({ git: false });
    roots.push(outside);
    await materialize(outside, { files: { 'keep/journal.json': { bytes: bytes('{}'), mode: 0o644 } } });
    await fs.mkdir(join(root, '.patchsmith'));
    await fs.symlink(join(outside, 'keep'), join(root, '.patchsmith', 'txn'));
    expect(await discardTransaction(root)).toEqual({ discarded: true });
    expect(await readFile(join(outside, 'keep', 'journal.json'), 'utf8')).toBe('{}');
    expect(await everything(root)).toEqual(['a.txt']);
    await fs.symlink(outside, join(root, '.patchsmith'));
    await fs.mkdir(join(outside, 'txn'));
    await expect(discardTransaction(root)).rejects.toMatchObject({ code: 'STATE_INVALID' });
    expect(await everything(outside)).toEqual(['keep', 'keep/journal.json', 'txn']);
  });
});

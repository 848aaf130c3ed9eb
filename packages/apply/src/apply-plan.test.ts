import { chmod, readdir, readFile, readlink, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PatchsmithError } from '@patchsmith/core';
import type { Plan } from '@patchsmith/planner';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import type { TransactionFs } from './fs.js';
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

const spec: TreeSpec = {
  files: {
    'a.txt': { bytes: bytes('a\n'), mode: 0o644 },
    'b.txt': { bytes: bytes('b\n'), mode: 0o600 },
    'dir/c.txt': { bytes: bytes('c\n'), mode: 0o644 },
  },
};
const content = (text: string, mode = 0o644) => ({ bytes: bytes(text), mode });
const update = (path: string, text: string): Plan['writes'][number] => ({
  path,
  before: beforeOf(spec, path),
  after: content(text, spec.files[path]?.mode),
});

async function setup(options: { git?: boolean } = {}): Promise<string> {
  const root = await makeRoot(options);
  roots.push(root);
  await materialize(root, spec);
  return root;
}

/** Every name in the tree (private state included) that looks like a staged or backup file. */
async function leftovers(root: string): Promise<string[]> {
  const names = await readdir(root, { recursive: true });
  return names.filter((name) => /patchsmith-tmp|backup-|journal|\.partial/.test(name));
}

describe('applyPlan', () => {
  it('applies updates, adds and deletes and leaves no temporary file', async () => {
    const root = await setup();
    const plan: Plan = {
      files: [],
      writes: [
        update('a.txt', 'a, edited\n'),
        { path: 'dir/c.txt', before: beforeOf(spec, 'dir/c.txt'), after: null },
        { path: 'new/deep/d.txt', before: null, after: content('d\n', 0o755) },
      ],
    };
    expect(await applyPlan(plan, { root })).toEqual({ ok: true });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('a, edited\n');
    expect((await stat(join(root, 'new/deep/d.txt'))).mode & 0o7777).toBe(0o755);
    await expect(stat(join(root, 'dir'))).rejects.toThrow(/ENOENT/);
    expect(await leftovers(root)).toEqual([]);
    // The emptied state dir goes with the lock: nothing is left behind.
    await expect(stat(join(root, '.git', 'patchsmith'))).rejects.toThrow(/ENOENT/);
  });

  it('leaves no temporary file after a failure either', async () => {
    const root = await setup();
    const before = await shapeOf(root);
    const plan: Plan = {
      files: [],
      writes: [update('a.txt', 'x\n'), { path: 'n/e.txt', before: null, after: content('e\n') }],
    };
    const calls: string[] = [];
    const probe = faultyFs({ before: async (call) => void calls.push(call) });
    await applyPlan(plan, { root: await setup(), fs: probe.fs });
    const firstRename = calls.findIndex((call, i) => call === 'rename' && i > calls.indexOf('link'));
    const faulty = faultyFs({ failAt: firstRename + 2 });
    const result = await applyPlan(plan, { root, fs: faulty.fs });
    expect(result).toMatchObject({ ok: false, errors: [{ code: 'IO_ERROR' }] });
    if (!result.ok) expect(result.errors[0]!.message).toMatch(/^rename failed on /);
    expect(await shapeOf(root)).toEqual(before);
    expect(await leftovers(root)).toEqual([]);
  });

  it('keeps its state in .patchsmith/ without a repository, and removes it once empty', async () => {
    const root = await setup({ git: false });
    expect(await applyPlan({ files: [], writes: [update('b.txt', 'b2\n')] }, { root })).toEqual({ ok: true });
    await expect(stat(join(root, '.patchsmith'))).rejects.toThrow(/ENOENT/);
    expect((await stat(join(root, 'b.txt'))).mode & 0o7777).toBe(0o600);
  });

  it('does nothing for an empty plan', async () => {
    const root = await setup();
    expect(await applyPlan({ files: [], writes: [] }, { root })).toEqual({ ok: true });
    expect(await readdir(join(root, '.git'))).toEqual([]);
  });

  it('leaves a file the plan does not change untouched (same inode)', async () => {
    const root = await setup();
    const inode = (await stat(join(root, 'a.txt'))).ino;
    const plan: Plan = {
      files: [],
      writes: [{ path: 'a.txt', before: beforeOf(spec, 'a.txt'), after: content('a\n') }],
    };
    expect(await applyPlan(plan, { root })).toEqual({ ok: true });
    expect((await stat(join(root, 'a.txt'))).ino).toBe(inode);
  });
});

describe('beforeFirstWrite', () => {
  const plan: Plan = {
    files: [],
    writes: [update('a.txt', 'a2\n'), { path: 'e.txt', before: null, after: content('e\n') }],
  };

  it('is called once, under the lock, after the checks and before the first write', async () => {
    const root = await setup();
    const before = await shapeOf(root);
    const seen: { plan: Plan; locked: boolean; untouched: boolean }[] = [];
    const beforeFirstWrite = async (checked: Plan) => {
      const locked = await stat(join(root, '.git', 'patchsmith', 'lock')).then(
        () => true,
        () => false,
      );
      seen.push({
        plan: checked,
        locked,
        untouched: JSON.stringify(await shapeOf(root)) === JSON.stringify(before),
      });
    };
    expect(await applyPlan(plan, { root, beforeFirstWrite })).toEqual({ ok: true });
    expect(seen).toEqual([{ plan, locked: true, untouched: true }]);
    expect(await readFile(join(root, 'e.txt'), 'utf8')).toBe('e\n');
  });

  it('is not called when the check refuses the plan, nor when nothing is to be written', async () => {
    const root = await setup();
    let calls = 0;
    const beforeFirstWrite = async () => void calls++;
    await writeFile(join(root, 'a.txt'), 'changed by someone\n');
    const stale = await applyPlan(plan, { root, beforeFirstWrite });
    expect(stale).toMatchObject({ ok: false, errors: [{ code: 'STALE', path: 'a.txt' }] });
    const unchanged = { path: 'b.txt', before: beforeOf(spec, 'b.txt'), after: spec.files['b.txt']! };
    expect(await applyPlan({ files: [], writes: [unchanged] }, { root, beforeFirstWrite })).toEqual({
      ok: true,
    });
    expect(calls).toBe(0);
  });

  it('when it throws, the apply fails with its error, writes nothing and releases the lock', async () => {
    const root = await setup();
    const before = await shapeOf(root);
    const beforeFirstWrite = async () => {
      throw new PatchsmithError('STATE_INVALID', 'no snapshot could be recorded: test; nothing was written');
    };
    expect(await applyPlan(plan, { root, beforeFirstWrite })).toEqual({
      ok: false,
      errors: [
        { code: 'STATE_INVALID', message: 'no snapshot could be recorded: test; nothing was written' },
      ],
    });
    expect(await shapeOf(root)).toEqual(before);
    expect(await applyPlan(plan, { root, lockTimeoutMs: 0 })).toEqual({ ok: true });
  });
});

describe('STALE', () => {
  it('a file changed between plan and apply: STALE naming it, nothing written', async () => {
    const root = await setup();
    const plan: Plan = {
      files: [],
      writes: [
        update('a.txt', 'a2\n'),
        update('b.txt', 'b2\n'),
        { path: 'e.txt', before: null, after: content('e\n') },
      ],
    };
    await writeFile(join(root, 'b.txt'), 'b changed by someone\n');
    const before = await shapeOf(root);
    const result = await applyPlan(plan, { root });
    expect(result).toMatchObject({ ok: false, errors: [{ code: 'STALE', path: 'b.txt' }] });
    expect(await shapeOf(root)).toEqual(before);
  });

  it('reports every stale path: changed mode, removed file, file that appeared', async () => {
    const root = await setup();
    const plan: Plan = {
      files: [],
      writes: [
        update('a.txt', 'a2\n'),
        update('b.txt', 'b2\n'),
        { path: 'e.txt', before: null, after: content('e\n') },
      ],
    };
    await chmod(join(root, 'a.txt'), 0o600);
    await unlink(join(root, 'b.txt'));
    await writeFile(join(root, 'e.txt'), 'here now\n');
    const before = await shapeOf(root);
    const result = await applyPlan(plan, { root });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.errors.map((e) => [e.code, e.path])).toEqual([
        ['STALE', 'a.txt'],
        ['STALE', 'b.txt'],
        ['STALE', 'e.txt'],
      ]);
    expect(await shapeOf(root)).toEqual(before);
  });
});

describe('paths at apply time', () => {
  it('refuses a path policy violation and writes nothing', async () => {
    const root = await setup();
    const before = await shapeOf(root);
    const plan: Plan = {
      files: [],
      writes: [
        update('a.txt', 'a2\n'),
        { path: '../escape.txt', before: null, after: content('x') },
        { path: '.git/x', before: null, after: content('x') },
      ],
    };
    const result = await applyPlan(plan, { root });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.code)).toEqual(['PATH_OUTSIDE_ROOT', 'PATH_INVALID']);
    expect(await shapeOf(root)).toEqual(before);
  });

  it('writes through a symlink inside the root, keeping the link', async () => {
    const root = await setup();
    await symlink('a.txt', join(root, 'link'));
    const plan: Plan = {
      files: [],
      writes: [{ path: 'link', before: beforeOf(spec, 'a.txt'), after: content('via link\n') }],
    };
    expect(await applyPlan(plan, { root })).toEqual({ ok: true });
    expect(await readlink(join(root, 'link'))).toBe('a.txt');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('via link\n');
  });

  it('refuses two plan paths that reach the same file', async () => {
    const root = await setup();
    await symlink('a.txt', join(root, 'link'));
    const plan: Plan = {
      files: [],
      writes: [
        update('a.txt', 'one\n'),
        { path: 'link', before: beforeOf(spec, 'a.txt'), after: content('two\n') },
      ],
    };
    expect(await applyPlan(plan, { root })).toMatchObject({
      ok: false,
      errors: [{ code: 'PATH_INVALID', path: 'link' }],
    });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('refuses an add below a file (NOT_A_FILE)', async () => {
    const root = await setup();
    const plan: Plan = { files: [], writes: [{ path: 'a.txt/inner', before: null, after: content('x') }] };
    expect(await applyPlan(plan, { root })).toMatchObject({ ok: false, errors: [{ code: 'NOT_A_FILE' }] });
  });
});

describe('backups across devices', () => {
  // link(2) answering EXDEV, as when the state dir is on another file system than the tree.
  const noHardLinks = (base: TransactionFs): TransactionFs => ({
    ...base,
    link: async () => {
      throw Object.assign(new Error('EXDEV: cross-device link not permitted'), { code: 'EXDEV' });
    },
  });

  it('falls back to copies (symlinks recreated) and still rolls back byte for byte', async () => {
    const root = await setup();
    await symlink('b.txt', join(root, 'blink'));
    const plan: Plan = {
      files: [],
      writes: [
        update('a.txt', 'a2\n'),
        { path: 'blink', before: beforeOf(spec, 'b.txt'), after: null },
        { path: 'dir/c.txt', before: beforeOf(spec, 'dir/c.txt'), after: null },
      ],
    };
    const before = await shapeOf(root);
    const probe = faultyFs({}, noHardLinks(faultyFs().fs));
    const commitIndex = (calls: string[]) =>
      calls.findIndex((c) => c.startsWith('unlink') && c.endsWith('journal.json'));
    const scratch = await setup();
    await symlink('b.txt', join(scratch, 'blink'));
    expect(await applyPlan(plan, { root: scratch, fs: probe.fs })).toEqual({ ok: true });
    const commit = commitIndex(probe.log);
    expect(probe.log.some((c) => c.startsWith('copyFile'))).toBe(true);
    expect(probe.log.some((c) => c.startsWith('symlink'))).toBe(true);
    // Fail the commit itself: everything done so far is undone from the copies.
    const faulty = faultyFs({ failAt: commit + 1 }, noHardLinks(faultyFs().fs));
    expect(await applyPlan(plan, { root, fs: faulty.fs })).toMatchObject({
      ok: false,
      errors: [{ code: 'IO_ERROR' }],
    });
    expect(await shapeOf(root)).toEqual(before);
    expect(await readlink(join(root, 'blink'))).toBe('b.txt');
  });
});

describe('recoverTransaction', () => {
  it('takes no lock and writes nothing when there is nothing to recover', async () => {
    const root = await setup();
    const calls: string[] = [];
    const counting = faultyFs({ before: async (call) => void calls.push(call) });
    expect(await recoverTransaction(root, { fs: counting.fs })).toEqual({ recovered: false, paths: [] });
    expect(calls).toEqual([]);
  });

  it('restores the before state of a killed apply and names its paths; the next apply runs normally', async () => {
    const root = await setup();
    const before = await shapeOf(root);
    const plan: Plan = {
      files: [],
      writes: [
        update('a.txt', 'a2\n'),
        { path: 'dir/c.txt', before: beforeOf(spec, 'dir/c.txt'), after: null },
      ],
    };
    const probe = faultyFs();
    const scratch = await setup();
    await applyPlan(plan, { root: scratch, fs: probe.fs });
    // Kill right after the first file was renamed into place.
    const firstTreeRename = probe.log.findIndex((c) => c.startsWith('rename') && !c.includes('/.git/'));
    const crashed = faultyFs({ failAt: firstTreeRename + 2, kill: true });
    await applyPlan(plan, { root, fs: crashed.fs });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('a2\n');
    expect(await recoverTransaction(root)).toEqual({ recovered: true, paths: ['a.txt', 'dir/c.txt'] });
    expect(await shapeOf(root)).toEqual(before);
    expect(await recoverTransaction(root)).toEqual({ recovered: false, paths: [] });
    expect(await applyPlan(plan, { root })).toEqual({ ok: true });
  });

  it('an apply finds a killed transaction and rolls it back before checking its own plan', async () => {
    const root = await setup();
    const plan: Plan = { files: [], writes: [update('a.txt', 'a2\n')] };
    const probe = faultyFs();
    await applyPlan(plan, { root: await setup(), fs: probe.fs });
    const firstTreeRename = probe.log.findIndex((c) => c.startsWith('rename') && !c.includes('/.git/'));
    await applyPlan(plan, { root, fs: faultyFs({ failAt: firstTreeRename + 2, kill: true }).fs });
    // Half applied on disk, yet the same plan (made against the before state) is not stale.
    expect(await applyPlan({ files: [], writes: [update('a.txt', 'a3\n')] }, { root })).toEqual({ ok: true });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('a3\n');
  });
});

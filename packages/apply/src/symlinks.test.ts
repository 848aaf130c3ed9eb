/**
 * Writes of symbolic links themselves (git's mode 120000, the bytes are the target): made, changed,
 * replaced by a file and deleted all or nothing under every injected fault and crash; a link that
 * would lead out of the root through the links on disk, or into private state, is refused with
 * nothing written.
 */
import { mkdir, readlink, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { SYMLINK_MODE } from '@patchsmith/core';
import type { PlannedWrite } from '@patchsmith/planner';
import { describe, expect, it } from 'vitest';
import { applyPlan, checkPlan } from './apply-plan.js';
import { readFiles } from './read-files.js';
import { baseline, checkCrash, checkFault, type Scenario } from './test-support/fault-check.js';
import { bytes, makeRoot, materialize, removeRoot, shapeOf } from './test-support/tree.js';

const link = (target: string) => ({ bytes: bytes(target), mode: SYMLINK_MODE });
const linkBefore = (target: string) => ({ hash: '', mode: SYMLINK_MODE, bytes: bytes(target) });

const links: Scenario = {
  spec: {
    files: {
      'f.txt': { bytes: bytes('f\n'), mode: 0o644 },
      'sub/g.txt': { bytes: bytes('g\n'), mode: 0o644 },
    },
  },
  decorate: async (root) => {
    await symlink('f.txt', join(root, 'changed'));
    await symlink('f.txt', join(root, 'becomes-file'));
    await symlink('sub/g.txt', join(root, 'sub-link-gone'));
  },
  plan: {
    files: [],
    writes: [
      { path: 'changed', before: linkBefore('f.txt'), after: link('sub/g.txt') },
      {
        path: 'becomes-file',
        before: linkBefore('f.txt'),
        after: { bytes: bytes('a file now\n'), mode: 0o644 },
      },
      { path: 'sub-link-gone', before: linkBefore('sub/g.txt'), after: null },
      { path: 'new/up', before: null, after: link('../f.txt') },
    ],
  },
};

describe('symbolic links written as links', () => {
  it('are made, changed, replaced and deleted; the files they point at are never touched', async () => {
    const { before, after } = await baseline(links);
    expect(after.files).toMatchObject({
      changed: 'link:sub/g.txt',
      'new/up': 'link:../f.txt',
      'f.txt': before.files['f.txt'],
      'sub/g.txt': before.files['sub/g.txt'],
    });
    expect(after.files['becomes-file']).toMatch(/^644 /);
    expect(after.files['sub-link-gone']).toBeUndefined();
  });

  it('each mutating call failing in turn, and a crash at each, leaves the links as they were (or applied)', async () => {
    const { before, after, calls } = await baseline(links);
    for (let k = 1; k <= calls + 1; k++) await checkFault(links, k, before, after);
    for (let k = 1; k <= calls; k += 2) await checkCrash(links, k, 1 + ((k * 3) % 13), before, after);
  });

  it('readFiles reads a path named as a link as its target, even one pointing out of the root, without following it', async () => {
    const root = await makeRoot();
    try {
      await symlink('/etc/passwd', join(root, 'out'));
      const read = await readFiles(root, ['out'], { links: ['out'] });
      expect(read.get('out')).toMatchObject({
        kind: 'file',
        mode: SYMLINK_MODE,
        bytes: bytes('/etc/passwd'),
      });
      expect((await readFiles(root, ['out'])).get('out')).toMatchObject({
        kind: 'refused',
        code: 'PATH_OUTSIDE_ROOT',
      });
    } finally {
      await removeRoot(root);
    }
  });
});

describe('a link the plan makes never leads out', () => {
  async function refusedWith(setup: (root: string) => Promise<void>, writes: PlannedWrite[]) {
    const root = await makeRoot();
    try {
      await setup(root);
      const before = await shapeOf(root);
      const plan = { files: [], writes };
      const applied = await applyPlan(plan, { root });
      expect(await checkPlan(plan, { root })).toStrictEqual(applied);
      expect(await shapeOf(root)).toStrictEqual(before);
      return applied.ok ? [] : applied.errors;
    } finally {
      await removeRoot(root);
    }
  }

  it.each([
    [
      'through a folder link that leads out',
      'escape/passwd',
      async (root: string) => symlink('/etc', join(root, 'escape')),
    ],
    [
      // x/y/../z is x/z by its text, but x/y is the root itself: the link would lead to the root's parent.
      'climbing out from a folder reached through a link',
      '../z',
      async (root: string) => {
        await mkdir(join(root, 'x'));
        await symlink('..', join(root, 'x/y'));
      },
    ],
    ['into private state', '.git/config', async () => {}],
  ])('%s is PATH_OUTSIDE_ROOT, nothing written', async (_name, target, setup) => {
    const at = target === '../z' ? 'x/y/l' : 'l';
    const errors = await refusedWith(setup, [{ path: at, before: null, after: link(target) }]);
    expect(errors).toMatchObject([{ code: 'PATH_OUTSIDE_ROOT', path: at }]);
    expect(errors[0]!.message).toContain(`the symbolic link ${at} is refused`);
  });

  it('a link changed since planning is STALE', async () => {
    const errors = await refusedWith(
      async (root) => {
        await materialize(root, { files: { a: { bytes: bytes('a'), mode: 0o644 } } });
        await symlink('elsewhere', join(root, 'l'));
      },
      [{ path: 'l', before: linkBefore('a'), after: link('b') }],
    );
    expect(errors).toMatchObject([{ code: 'STALE', path: 'l' }]);
  });

  it('a link made inside the root is fine, and what it points at is untouched', async () => {
    const root = await makeRoot();
    try {
      await materialize(root, { files: { 'in/t.txt': { bytes: bytes('t\n'), mode: 0o644 } } });
      expect(
        await applyPlan(
          { files: [], writes: [{ path: 'l', before: null, after: link('in/t.txt') }] },
          { root },
        ),
      ).toEqual({
        ok: true,
      });
      expect(await readlink(join(root, 'l'))).toBe('in/t.txt');
    } finally {
      await removeRoot(root);
    }
  });
});

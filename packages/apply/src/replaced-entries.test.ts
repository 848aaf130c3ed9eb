/**
 * A file replaced by a folder, and a folder by a file, within one plan (as `git diff` prints them:
 * `a` deleted and `a/b` added, or `a` added and `a/b` deleted): applied in either order of the
 * writes, all or nothing under every injected fault and crash, and refused (nothing written) when
 * the entry in the way does not go with the plan.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PlannedWrite } from '@patchsmith/planner';
import { describe, expect, it } from 'vitest';
import { applyPlan, checkPlan } from './apply-plan.js';
import { baseline, checkCrash, checkFault, type Scenario } from './test-support/fault-check.js';
import {
  beforeOf,
  bytes,
  makeRoot,
  materialize,
  removeRoot,
  shapeOf,
  type TreeSpec,
} from './test-support/tree.js';

const file = (text: string, mode = 0o644) => ({ bytes: bytes(text), mode });

function scenario(spec: TreeSpec, writes: (spec: TreeSpec) => PlannedWrite[]): Scenario {
  return { spec, plan: { files: [], writes: writes(spec) } };
}

const fileToFolder = scenario(
  { files: { a: file('was a file\n', 0o600), 'k.txt': file('kept\n') } },
  (spec) => [
    { path: 'a', before: beforeOf(spec, 'a'), after: null },
    { path: 'a/b', before: null, after: file('now below a\n') },
    { path: 'a/c/d', before: null, after: file('deeper\n', 0o755) },
  ],
);

const folderToFile = scenario(
  { files: { 'a/b': file('b\n'), 'a/c/d': file('d\n', 0o755), 'k.txt': file('kept\n') } },
  (spec) => [
    { path: 'a', before: null, after: file('now a file\n') },
    { path: 'a/b', before: beforeOf(spec, 'a/b'), after: null },
    { path: 'a/c/d', before: beforeOf(spec, 'a/c/d'), after: null },
  ],
);

/** The same plan with its writes in the other order. */
const reversed = (s: Scenario): Scenario => ({
  ...s,
  plan: { files: [], writes: [...s.plan.writes].reverse() },
});

describe('a file replaced by a folder and the reverse, in one transaction', () => {
  it.each([
    ['file -> folder', fileToFolder, { a: undefined, 'a/b': '644', 'a/c/d': '755' }],
    [
      'file -> folder, writes reversed',
      reversed(fileToFolder),
      { a: undefined, 'a/b': '644', 'a/c/d': '755' },
    ],
    ['folder -> file', folderToFile, { a: '644', 'a/b': undefined, 'a/c/d': undefined }],
    [
      'folder -> file, writes reversed',
      reversed(folderToFile),
      { a: '644', 'a/b': undefined, 'a/c/d': undefined },
    ],
  ])('%s applies', async (_name, s, modes) => {
    const { after } = await baseline(s);
    for (const [path, mode] of Object.entries(modes)) {
      if (mode === undefined) expect(after.files[path]).toBeUndefined();
      else expect(after.files[path]?.split(' ')[0]).toBe(mode);
    }
    expect(after.files['k.txt']).toBeDefined();
    if (modes.a === '644') expect(after.dirs.filter((d) => d.startsWith('a/'))).toStrictEqual([]);
  });

  it.each([
    ['file -> folder', fileToFolder],
    ['folder -> file', folderToFile],
  ])(
    '%s: each mutating call failing in turn, and a crash at each, leaves the tree byte-identical (or applied past the commit point)',
    async (_name, s) => {
      const { before, after, calls } = await baseline(s);
      for (let k = 1; k <= calls + 1; k++) await checkFault(s, k, before, after);
      for (let k = 1; k <= calls; k += 2) await checkCrash(s, k, 1 + ((k * 5) % 17), before, after);
    },
  );
});

describe('the entry in the way must go with the plan', () => {
  async function refused(setup: (root: string) => Promise<void>, writes: PlannedWrite[]) {
    const root = await makeRoot();
    try {
      await setup(root);
      const before = await shapeOf(root);
      const plan = { files: [], writes };
      const checked = await checkPlan(plan, { root });
      const applied = await applyPlan(plan, { root });
      expect(checked).toStrictEqual(applied);
      expect(await shapeOf(root)).toStrictEqual(before);
      return applied.ok ? [] : applied.errors;
    } finally {
      await removeRoot(root);
    }
  }

  it('a write below a file the plan keeps is NOT_A_FILE', async () => {
    const errors = await refused(
      (root) => materialize(root, { files: { a: file('x\n') } }),
      [{ path: 'a/b', before: null, after: file('y\n') }],
    );
    expect(errors).toStrictEqual([
      { code: 'NOT_A_FILE', message: 'cannot write a/b: a is a file, not a folder', path: 'a/b' },
    ]);
  });

  it('a file onto a folder that holds more than the plan deletes is NOT_A_FILE naming what is left', async () => {
    const spec = { files: { 'a/b': file('b\n'), 'a/deep/other.txt': file('not named by the patch\n') } };
    const errors = await refused(
      (root) => materialize(root, spec),
      [
        { path: 'a', before: null, after: file('file\n') },
        { path: 'a/b', before: beforeOf(spec, 'a/b'), after: null },
      ],
    );
    expect(errors).toStrictEqual([
      {
        code: 'NOT_A_FILE',
        message: 'cannot write a: it is a folder holding a/deep/other.txt, which the patch does not delete',
        path: 'a',
      },
    ]);
  });

  it('a file onto a folder holding an empty folder is refused: a rollback could not bring that back', async () => {
    const spec = { files: { 'a/b': file('b\n') }, dirs: ['a/empty'] };
    const errors = await refused(
      (root) => materialize(root, spec),
      [
        { path: 'a', before: null, after: file('file\n') },
        { path: 'a/b', before: beforeOf(spec, 'a/b'), after: null },
      ],
    );
    expect(errors[0]).toMatchObject({
      code: 'NOT_A_FILE',
      message: expect.stringContaining('holding the empty folder a/empty,'),
    });
  });

  it('a file onto a link to a folder is refused: the link would be replaced, not the folder', async () => {
    const errors = await refused(
      async (root) => {
        await materialize(root, { files: { 'real/b': file('b\n') } });
        await symlink('real', join(root, 'a'));
      },
      [
        { path: 'a', before: null, after: file('file\n') },
        { path: 'a/b', before: { hash: '', mode: 0o644, bytes: bytes('b\n') }, after: null },
      ],
    );
    expect(errors[0]).toMatchObject({ code: 'NOT_A_FILE', path: 'a' });
  });

  it('a file onto a folder with no deletes below it stays STALE (it was absent when planned)', async () => {
    const errors = await refused(
      async (root) => {
        await mkdir(join(root, 'a'));
        await writeFile(join(root, 'a', 'b'), 'b\n');
      },
      [{ path: 'a', before: null, after: file('file\n') }],
    );
    expect(errors[0]).toMatchObject({ code: 'STALE', path: 'a' });
  });
});

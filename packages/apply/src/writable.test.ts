import { createHash } from 'node:crypto';
import { chmod, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plan } from '@patchsmith/planner';
import { afterEach, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { bytes, makeRoot, materialize, removeRoot, shapeOf } from './test-support/tree.js';
import { readOnlyProblem } from './writable.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await removeRoot(root);
});

const before = (text: string, mode: number) => ({
  hash: createHash('sha256').update(text).digest('hex'),
  mode,
});

it.each([
  [
    'an update',
    (mode: number): Plan['writes'][number] => ({
      path: 'ro.txt',
      before: before('ro\n', mode),
      after: { bytes: bytes('x\n'), mode },
    }),
  ],
  [
    'a delete',
    (mode: number): Plan['writes'][number] => ({ path: 'ro.txt', before: before('ro\n', mode), after: null }),
  ],
])(
  '%s of a file no one may write (0444) is DENIED before anything is written, even as root',
  async (_, write) => {
    const root = await makeRoot();
    roots.push(root);
    await materialize(root, {
      files: {
        'ro.txt': { bytes: bytes('ro\n'), mode: 0o444 },
        'ok.txt': { bytes: bytes('ok\n'), mode: 0o644 },
      },
    });
    const shape = await shapeOf(root);
    const plan: Plan = {
      files: [],
      writes: [
        { path: 'ok.txt', before: before('ok\n', 0o644), after: { bytes: bytes('changed\n'), mode: 0o644 } },
        write(0o444),
      ],
    };
    expect(await applyPlan(plan, { root })).toEqual({
      ok: false,
      errors: [
        { code: 'DENIED', message: 'ro.txt is read-only (mode 0444); nothing was written', path: 'ro.txt' },
      ],
    });
    expect(await shapeOf(root)).toEqual(shape);
    // Once the user makes it writable, the same edit goes through.
    await chmod(join(root, 'ro.txt'), 0o644);
    expect(await applyPlan({ files: [], writes: [write(0o644)] }, { root })).toEqual({ ok: true });
    if (plan.writes[1]!.after) expect(await readFile(join(root, 'ro.txt'), 'utf8')).toBe('x\n');
    else await expect(stat(join(root, 'ro.txt'))).rejects.toThrow(/ENOENT/);
  },
);

it('decides by the write bits of owner, group and others', () => {
  expect(readOnlyProblem('f', { mode: 0o100444 })).toMatchObject({ code: 'DENIED' });
  expect(readOnlyProblem('f', { mode: 0o100555 })).toMatchObject({
    message: 'f is read-only (mode 0555); nothing was written',
  });
  expect(readOnlyProblem('f', { mode: 0o100000 })).toMatchObject({ code: 'DENIED' });
  for (const mode of [0o644, 0o200, 0o020, 0o002, 0o600]) expect(readOnlyProblem('f', { mode })).toBeNull();
});

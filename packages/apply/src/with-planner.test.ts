import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EditScript } from '@patchsmith/core';
import { planEdits, touchedPaths } from '@patchsmith/planner';
import { afterEach, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { readFiles } from './read-files.js';
import { bytes, makeRoot, materialize, removeRoot } from './test-support/tree.js';

let root: string;
afterEach(async () => removeRoot(root));

// A hand-built edit script (no parser): update with a move into a new folder, add, delete.
const script: EditScript = {
  format: 'codex',
  operations: [
    {
      kind: 'update',
      path: 'src/app.txt',
      movePath: 'lib/moved/app.txt',
      line: 2,
      chunks: [
        {
          anchors: [],
          endOfFile: false,
          line: 4,
          lines: [
            { kind: 'context', text: 'one', line: 4 },
            { kind: 'remove', text: 'two', line: 5 },
            { kind: 'add', text: 'TWO', line: 6 },
          ],
        },
      ],
    },
    { kind: 'add', path: 'notes/new.txt', lines: ['hello'], line: 8 },
    { kind: 'delete', path: 'old.txt', line: 10 },
  ],
};

it('readFiles feeds the planner, and applyPlan carries out its plan', async () => {
  root = await makeRoot();
  await materialize(root, {
    files: {
      'src/app.txt': { bytes: bytes('one\ntwo\nthree\n'), mode: 0o755 },
      'old.txt': { bytes: bytes('old\n'), mode: 0o644 },
    },
  });
  const planned = planEdits(script, await readFiles(root, touchedPaths(script, root)), { root });
  expect(planned.ok).toBe(true);
  if (!planned.ok) return;
  expect(await applyPlan(planned.plan, { root })).toEqual({ ok: true });
  expect(await readFile(join(root, 'lib/moved/app.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
  expect((await stat(join(root, 'lib/moved/app.txt'))).mode & 0o777).toBe(0o755);
  expect(await readFile(join(root, 'notes/new.txt'), 'utf8')).toBe('hello\n');
  await expect(stat(join(root, 'src'))).rejects.toThrow(/ENOENT/);
  await expect(stat(join(root, 'old.txt'))).rejects.toThrow(/ENOENT/);
});

it('a plan made before someone edited the file is STALE', async () => {
  root = await makeRoot();
  await materialize(root, {
    files: {
      'src/app.txt': { bytes: bytes('one\ntwo\nthree\n'), mode: 0o644 },
      'old.txt': { bytes: bytes('old\n'), mode: 0o644 },
    },
  });
  const planned = planEdits(script, await readFiles(root, touchedPaths(script, root)), { root });
  expect(planned.ok).toBe(true);
  if (!planned.ok) return;
  await writeFile(join(root, 'src/app.txt'), 'one\ntwo\nthree\nfour\n');
  expect(await applyPlan(planned.plan, { root })).toMatchObject({
    ok: false,
    errors: [{ code: 'STALE', path: 'src/app.txt' }],
  });
  expect(await readFile(join(root, 'old.txt'), 'utf8')).toBe('old\n');
});

/** SPEC §3's no-file-below-a-file rule, decided on the tree the plan leaves (a file replaced by a folder and back). */
import { describe, expect, it } from 'vitest';
import { planEdits } from './plan-edits.js';
import {
  add,
  chunk,
  del,
  directory,
  file,
  files,
  missing,
  ROOT,
  script,
  update,
} from './test-support/script.js';
import type { FileState } from './types.js';

const below = (belowFile: string): FileState => ({ kind: 'missing', belowFile });
const run = (ops: Parameters<typeof script>, state: Record<string, FileState>) =>
  planEdits(script(...ops), files(state), { root: ROOT });

describe('a file replaced by a folder, or a folder by a file, in one patch', () => {
  it('file -> folder in either order of the operations', () => {
    const state = { a: file('x\n'), 'a/b': below('a') };
    for (const ops of [
      [del('a'), add('a/b', ['y'])],
      [add('a/b', ['y']), del('a')],
    ]) {
      const planned = run(ops, state);
      expect(planned.ok && planned.plan.writes.map((w) => [w.path, w.after !== null])).toEqual(
        ops[0]!.kind === 'delete'
          ? [
              ['a', false],
              ['a/b', true],
            ]
          : [
              ['a/b', true],
              ['a', false],
            ],
      );
    }
  });

  it('folder -> file in either order (git prints the new file first)', () => {
    const state = { a: directory, 'a/b': file('b\n'), 'a/c/d': file('d\n') };
    for (const ops of [
      [add('a', ['f']), del('a/b'), del('a/c/d')],
      [del('a/b'), del('a/c/d'), add('a', ['f'])],
    ]) {
      const planned = run(ops, state);
      expect(planned.ok).toBe(true);
    }
  });

  it('a file left below a file is NOT_A_FILE, reported once on the path written later', () => {
    const kept = run([update('a', [chunk('-x\n+z')]), add('a/b', ['y'])], {
      a: file('x\n'),
      'a/b': below('a'),
    });
    expect(!kept.ok && kept.errors).toEqual([
      { code: 'NOT_A_FILE', message: 'cannot write a/b: a is a file, not a folder', path: 'a/b', line: 1 },
    ]);
    const folder = run([add('a', ['f'], 3), del('a/b')], {
      a: directory,
      'a/b': file('b\n'),
      'a/c': file('c\n'),
    });
    expect(folder.ok).toBe(true);
    const holding = run([add('a/c', ['c'], 2), add('a', ['f'], 5), del('a/b')], {
      a: directory,
      'a/b': file('b\n'),
      'a/c': missing,
    });
    expect(!holding.ok && holding.errors).toEqual([
      { code: 'NOT_A_FILE', message: 'cannot write a: it is a folder holding a/c', path: 'a', line: 5 },
    ]);
  });

  it('below a file the patch does not touch, or onto a folder it deletes nothing in, stays NOT_A_FILE', () => {
    const untouched = run([add('a/b', ['y'])], { 'a/b': below('a') });
    expect(!untouched.ok && untouched.errors).toEqual([
      { code: 'NOT_A_FILE', message: 'cannot write a/b: a is a file, not a folder', path: 'a/b', line: 1 },
    ]);
    const folder = run([add('a', ['f'])], { a: directory });
    expect(!folder.ok && folder.errors[0]).toMatchObject({ code: 'NOT_A_FILE', path: 'a' });
    const update_ = run([update('a/b', [chunk('+y')])], { 'a/b': below('a') });
    expect(!update_.ok && update_.errors[0]).toMatchObject({
      code: 'NOT_A_FILE',
      message: 'cannot write a/b: a is a file, not a folder',
    });
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';
import { formatUndo, undoLast } from './undo.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-undo-'));
  await writeFile(join(root, 'a.txt'), 'one\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const update = (from: string, to: string) =>
  `*** Begin Patch\n*** Update File: a.txt\n@@\n-${from}\n+${to}\n*** End Patch`;

async function apply(text: string) {
  const report = await runEdit({ kind: 'patch', text }, { root });
  expect(report.ok).toBe(true);
  return report.snapshot!;
}

const content = () => readFile(join(root, 'a.txt'), 'utf8');

describe('undoLast', () => {
  it('undoes the applies one after the other, newest first', async () => {
    const first = await apply(update('one', 'two'));
    const second = await apply(
      '*** Begin Patch\n*** Add File: b.txt\n+new\n*** Update File: a.txt\n@@\n-two\n+three\n*** End Patch',
    );
    expect(await content()).toBe('three\n');

    const undoSecond = await undoLast({ root });
    expect(undoSecond).toMatchObject({ ok: true, undone: second });
    expect(await content()).toBe('two\n');
    await expect(readFile(join(root, 'b.txt'))).rejects.toThrow();
    expect(formatUndo(undoSecond)).toBe(
      `Undone ${second}; the files are back as they were before that apply.\n[D] b.txt\n[M] a.txt (+1 -1)\n`,
    );

    expect(await undoLast({ root })).toMatchObject({ ok: true, undone: first });
    expect(await content()).toBe('one\n');

    const nothing = await undoLast({ root });
    expect(nothing).toMatchObject({ ok: false, errors: [{ code: 'NO_SNAPSHOT' }] });
    expect(formatUndo(nothing)).toContain('The undo was refused and nothing was written.');
  });

  it('refuses with STALE when the file changed since, and force restores anyway', async () => {
    const id = await apply(update('one', 'two'));
    await writeFile(join(root, 'a.txt'), 'edited by hand\n');
    const refused = await undoLast({ root });
    expect(refused).toMatchObject({ ok: false, undone: id, errors: [{ code: 'STALE' }] });
    expect(refused.errors[0]!.message).toContain('a.txt');
    expect(await content()).toBe('edited by hand\n');

    expect(await undoLast({ root, force: true })).toMatchObject({ ok: true, undone: id });
    expect(await content()).toBe('one\n');
  });

  it('undoes a given snapshot id, inside a git repository too, leaving HEAD alone', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init');
    const head = git('rev-parse', 'HEAD');
    const id = await apply(update('one', 'two'));
    expect(await undoLast({ root, id })).toMatchObject({ ok: true, undone: id });
    expect(await content()).toBe('one\n');
    expect(git('rev-parse', 'HEAD')).toBe(head);
    expect(await undoLast({ root, id: 'no-such-snapshot' })).toMatchObject({
      ok: false,
      errors: [{ code: 'NO_SNAPSHOT' }],
    });
  });
});

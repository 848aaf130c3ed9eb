/** `--base-from` (three-way merge of an edit made against what the model read) and `--partial`, through the built bin. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';

let dir: string;
let root: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'patchsmith-cli-merge-'));
  root = join(dir, 'root');
  await mkdir(root);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const read = (path: string) => readFile(join(root, path), 'utf8');
const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join('');
const patch = (...sections: string[]) => ['*** Begin Patch', ...sections, '*** End Patch', ''].join('\n');
const edit = (path: string, context: string[], from: string, to: string) =>
  [`*** Update File: ${path}`, '@@', ...context.map((c) => ` ${c}`), `-${from}`, `+${to}`].join('\n');

describe('patchsmith apply --base-from PATH=FILE', () => {
  it('merges an edit made against the version read into the file as it is now', async () => {
    // What the model read, kept by the host outside the root.
    await writeFile(join(dir, 'read.txt'), lines('a', 'b', 'c', 'd', 'e', 'f'));
    // Since then someone changed line 2 (in the edit's context) and added a line at the top.
    await writeFile(join(root, 'f.txt'), lines('top', 'a', 'B!', 'c', 'd', 'e', 'f'));
    const r = runBin(
      PATCHSMITH_BIN,
      ['apply', '-', '--no-snapshot', '--json', '--base-from', `f.txt=${join(dir, 'read.txt')}`],
      {
        cwd: root,
        input: patch(edit('f.txt', ['b', 'c'], 'd', 'D')),
      },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.files[0].merged).toEqual({ moved: [{ read: 4, now: 5, lines: 1 }] });
    expect(await read('f.txt')).toBe(lines('top', 'a', 'B!', 'c', 'D', 'e', 'f'));
  });

  it('a conflict exits 1 with STALE and the regions, leaving the file as it is (no markers)', async () => {
    await writeFile(join(dir, 'read.txt'), lines('a', 'b', 'c'));
    await writeFile(join(root, 'f.txt'), lines('a', 'theirs', 'c'));
    const r = runBin(
      PATCHSMITH_BIN,
      ['apply', '-', '--no-snapshot', '--base-from', `f.txt=${join(dir, 'read.txt')}`],
      {
        cwd: root,
        input: patch(edit('f.txt', ['a'], 'b', 'ours')),
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('STALE');
    expect(r.stderr).toContain('the file now has:');
    expect(r.stderr).toContain('theirs');
    expect(await read('f.txt')).toBe(lines('a', 'theirs', 'c'));
  });

  it('a malformed or unreadable --base-from is a usage error (exit 2)', async () => {
    await writeFile(join(root, 'f.txt'), lines('a'));
    for (const flag of ['f.txt', '=x', `f.txt=${join(dir, 'missing')}`]) {
      const r = runBin(PATCHSMITH_BIN, ['apply', '-', '--base-from', flag], {
        cwd: root,
        input: patch(edit('f.txt', [], 'a', 'b')),
      });
      expect(r.status, flag).toBe(2);
      expect(r.stderr).toContain('--base-from');
    }
    expect(await read('f.txt')).toBe(lines('a'));
  });

  it('a --base-from PATH the edit does not touch is a usage error, not a base silently ignored', async () => {
    await writeFile(join(dir, 'read.txt'), lines('a'));
    await writeFile(join(root, 'f.txt'), lines('a'));
    const r = runBin(PATCHSMITH_BIN, ['apply', '-', '--base-from', `g.txt=${join(dir, 'read.txt')}`], {
      cwd: root,
      input: patch(edit('f.txt', [], 'a', 'b')),
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      'error: --base-from g.txt=…: the edit does not touch g.txt (it touches f.txt;',
    );
    expect(await read('f.txt')).toBe(lines('a'));
  });
});

describe('patchsmith apply --partial', () => {
  it('writes the files that locate, exits 3 and says partial in text and JSON', async () => {
    await writeFile(join(root, 'a.txt'), lines('one'));
    await writeFile(join(root, 'b.txt'), lines('two'));
    const input = patch(edit('a.txt', [], 'one', 'ONE'), edit('b.txt', [], 'missing', 'x'));
    const text = runBin(PATCHSMITH_BIN, ['apply', '-', '--no-snapshot', '--partial', '--check'], {
      cwd: root,
      input,
    });
    expect(text.status).toBe(3);
    expect(text.stderr).toContain('Patch partly applies: 1 file(s) would be written; 1 error(s)');
    expect(await read('a.txt')).toBe(lines('one'));
    const json = runBin(PATCHSMITH_BIN, ['apply', '-', '--no-snapshot', '--partial', '--json'], {
      cwd: root,
      input,
    });
    expect(json.status).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      partial: true,
      files: [{ path: 'a.txt' }],
      errors: [{ code: 'NO_MATCH', path: 'b.txt' }],
    });
    expect(await read('a.txt')).toBe(lines('ONE'));
    expect(await read('b.txt')).toBe(lines('two'));
  });

  it('without --partial the same patch writes nothing and exits 1', async () => {
    await writeFile(join(root, 'a.txt'), lines('one'));
    await writeFile(join(root, 'b.txt'), lines('two'));
    const input = patch(edit('a.txt', [], 'one', 'ONE'), edit('b.txt', [], 'missing', 'x'));
    const r = runBin(PATCHSMITH_BIN, ['apply', '-', '--no-snapshot'], { cwd: root, input });
    expect(r.status).toBe(1);
    expect(await read('a.txt')).toBe(lines('one'));
  });
});

import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';

let parent: string;
let dir: string;
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'ps-state-'));
  dir = join(parent, 'root');
  await mkdir(dir);
  await writeFile(join(parent, 'outside.txt'), 'keep\n');
  await writeFile(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

const ps = (args: string[], input?: string) => runBin(PATCHSMITH_BIN, args, { cwd: dir, input });
const UPDATE_A = [
  '*** Begin Patch',
  '*** Update File: a.txt',
  '@@',
  ' one',
  '-two',
  '+TWO',
  '*** End Patch',
  '',
].join('\n');

describe('a journal that arrived with the repository', () => {
  it('apply and recover refuse it (STATE_INVALID, exit 1, nothing changed); recover --discard drops it', async () => {
    const txn = join(dir, '.patchsmith', 'txn');
    await mkdir(txn, { recursive: true });
    const journal = {
      version: 1,
      id: '0123456789ab',
      base: '',
      createdDirs: [],
      dirModes: {},
      entries: [
        {
          path: 'x',
          temp: null,
          target: null,
          created: false,
          backup: 'backup-0',
          restoreTo: '../outside.txt',
          remove: null,
        },
      ],
    };
    await writeFile(join(txn, 'journal.json'), JSON.stringify(journal));
    await writeFile(join(txn, 'backup-0'), 'evil\n');
    for (const args of [['apply'], ['recover']]) {
      const r = ps(args, UPDATE_A);
      expect(r.status, args[0]).toBe(1);
      expect(r.stderr, args[0]).toContain('STATE_INVALID');
      expect(r.stderr, args[0]).toContain(
        'the transaction journal .patchsmith/txn/journal.json is invalid: entries[0].restoreTo leads outside the root; nothing was changed; `patchsmith recover --discard` drops it',
      );
      expect(await readFile(join(parent, 'outside.txt'), 'utf8')).toBe('keep\n');
      expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    }
    const discard = ps(['recover', '--discard']);
    expect(discard).toMatchObject({ status: 0, stderr: '' });
    expect(discard.stdout).toBe(
      'Dropped the interrupted apply (its journal and backups); the files were left as they are.\n',
    );
    expect(await readdir(dir)).toEqual(['a.txt']);
    expect(await readFile(join(parent, 'outside.txt'), 'utf8')).toBe('keep\n');
    expect(ps(['recover', '--discard']).stdout).toBe('Nothing to discard.\n');
    expect(ps(['apply'], UPDATE_A).status).toBe(0);
  });
});

it('recover shows the paths of a valid journal with control characters escaped', async () => {
  const txn = join(dir, '.patchsmith', 'txn');
  await mkdir(txn, { recursive: true });
  const entry = {
    path: 'a\u001b[2J.txt',
    temp: null,
    target: null,
    created: false,
    backup: 'backup-0',
    restoreTo: 'a.txt',
    remove: null,
  };
  await writeFile(
    join(txn, 'journal.json'),
    JSON.stringify({
      version: 1,
      id: '0123456789ab',
      base: '',
      createdDirs: [],
      dirModes: {},
      entries: [entry],
    }),
  );
  await writeFile(join(txn, 'backup-0'), 'before\n');
  const r = ps(['recover']);
  expect(r.status).toBe(0);
  expect(r.stdout).toBe('Recovered an interrupted apply; restored 1 path(s):\n  a\\u001b[2J.txt\n');
  expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('before\n');
});

describe('--cwd', () => {
  it.each([['apply'], ['recover'], ['log'], ['undo']])(
    '%s with a --cwd that does not exist is a usage error (exit 2)',
    async (command) => {
      const r = ps([command!, '--cwd', 'no/such/dir'], UPDATE_A);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^error: --cwd no\/such\/dir: no such folder\n/);
      const file = ps([command!, '--cwd=a.txt'], UPDATE_A);
      expect(file.status).toBe(2);
      expect(file.stderr).toMatch(/^error: --cwd a\.txt: not a folder\n/);
    },
  );
});

it('a read-only file (0444) is refused with DENIED, exit 1, and left as it was', async () => {
  await chmod(join(dir, 'a.txt'), 0o444);
  const r = ps(['apply'], UPDATE_A);
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('a.txt is read-only (mode 0444); nothing was written');
  expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  // The snapshot store (taken before the apply) may stay; no staged file does.
  expect((await readdir(dir)).filter((name) => name !== '.patchsmith')).toEqual(['a.txt']);
});

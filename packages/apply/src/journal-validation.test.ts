import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Plan } from '@patchsmith/planner';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { recoverTransaction } from './recover-transaction.js';
import { bytes } from './test-support/tree.js';

const ID = '0123456789ab';
const temp = (dir: string, name: string) => `${dir === '' ? '' : `${dir}/`}.${name}.${ID}.patchsmith-tmp`;

/** A journal as the transaction writes it: an update of a.txt, an add of new/n.txt, a delete of dir/c.txt. */
function validJournal() {
  return {
    version: 1,
    id: ID,
    base: '',
    createdDirs: ['new'],
    dirModes: { dir: 0o755 },
    entries: [
      {
        path: 'a.txt',
        temp: temp('', 'a.txt'),
        target: 'a.txt',
        created: false,
        backup: 'backup-0',
        restoreTo: 'a.txt',
        remove: null,
      },
      {
        path: 'new/n.txt',
        temp: temp('new', 'n.txt'),
        target: 'new/n.txt',
        created: true,
        backup: null,
        restoreTo: null,
        remove: null,
      },
      {
        path: 'dir/c.txt',
        temp: null,
        target: null,
        created: false,
        backup: 'backup-2',
        restoreTo: 'dir/c.txt',
        remove: 'dir/c.txt',
      },
    ],
  };
}
type Journal = ReturnType<typeof validJournal>;
type Entry = Journal['entries'][number];

/** A parent folder holding the root and a sibling folder outside it (the attacker's targets). */
interface World {
  parent: string;
  root: string;
  outside: string;
  stateDir: string;
}

const worlds: string[] = [];
afterEach(async () => {
  for (const dir of worlds.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

async function makeWorld(git: boolean): Promise<World> {
  const parent = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'patchsmith-journal-')));
  worlds.push(parent);
  const root = join(parent, 'root');
  const outside = join(parent, 'outside');
  for (const [path, text] of [
    ['root/a.txt', 'a\n'],
    ['root/dir/c.txt', 'c\n'],
    ['root/.a.txt.0123456789ab.patchsmith-tmp', 'staged\n'],
    ['outside/secret.txt', 'secret\n'],
    ['outside/.secret.txt.0123456789ab.patchsmith-tmp', 'theirs\n'],
    ['outside/sub/x.txt', 'x\n'],
    ['outside/txn/backup-0', 'evil\n'],
  ] as const) {
    await fs.mkdir(join(parent, path, '..'), { recursive: true });
    await fs.writeFile(join(parent, path), text);
  }
  await fs.symlink('../outside', join(root, 'link'));
  if (git) await fs.mkdir(join(root, '.git'));
  const stateDir = git ? join(root, '.git', 'patchsmith') : join(root, '.patchsmith');
  await fs.mkdir(join(stateDir, 'txn'), { recursive: true });
  await fs.writeFile(join(stateDir, 'txn', 'backup-0'), 'a from the backup\n');
  await fs.writeFile(join(stateDir, 'txn', 'backup-2'), 'c from the backup\n');
  return { parent, root, outside, stateDir };
}

/** Every entry below `dir`: file modes and content hashes, link texts, folder modes. */
async function fingerprint(dir: string): Promise<Record<string, string>> {
  const shape: Record<string, string> = {};
  const walk = async (at: string, prefix: string) => {
    for (const name of (await fs.readdir(at)).sort()) {
      const path = join(at, name);
      const rel = `${prefix}${name}`;
      const stats = await fs.lstat(path);
      const mode = (stats.mode & 0o7777).toString(8);
      if (stats.isSymbolicLink()) shape[rel] = `link ${await fs.readlink(path)}`;
      else if (stats.isDirectory()) {
        shape[`${rel}/`] = `dir ${mode}`;
        await walk(path, `${rel}/`);
      } else if (!stats.isFile()) shape[rel] = `special ${mode}`;
      else
        shape[rel] = `file ${mode} ${createHash('sha256')
          .update(await fs.readFile(path))
          .digest('hex')}`;
    }
  };
  await walk(dir, '');
  return shape;
}

const plan: Plan = {
  files: [],
  writes: [
    {
      path: 'a.txt',
      before: { hash: createHash('sha256').update('a\n').digest('hex'), mode: 0o644 },
      after: { bytes: bytes('a2\n'), mode: 0o644 },
    },
  ],
};

/** A hostile journal: raw text, or the valid journal with one change. */
type Hostile = string | ((journal: Journal, world: World) => unknown);

const withEntry = (index: number, change: Record<string, unknown>) => (journal: Journal) => {
  journal.entries[index] = { ...journal.entries[index]!, ...change } as Entry;
  return journal;
};
const setField = (key: string, value: unknown) => (journal: Journal) => ({ ...journal, [key]: value });
const without = (key: string) => (journal: Journal) => {
  const copy: Record<string, unknown> = { ...journal };
  delete copy[key];
  return copy;
};

/** Tree paths that a journal may not name (with the world, for absolute ones). */
const hostilePaths = (world: World): [string, unknown][] => [
  ['escaping', '../outside/secret.txt'],
  ['escaping after a name', 'a/../../outside/secret.txt'],
  ['absolute outside', join(world.outside, 'secret.txt')],
  ['absolute inside', join(world.root, 'a.txt')],
  ['in .git', '.git/config'],
  ['in private state', relative(world.root, join(world.stateDir, 'lock'))],
  ['through a symlink to a sibling folder', 'link/secret.txt'],
  ['not normalised', './a.txt'],
  ['a double slash', 'dir//c.txt'],
  ['empty', ''],
  ['the root itself', '.'],
  ['a NUL byte', 'a\0.txt'],
  ['a number', 42],
  ['an array', ['a.txt']],
  ['an object', { path: 'a.txt' }],
  ['huge', 'x/'.repeat(40_000)],
];

function cases(world: World): [string, Hostile][] {
  const list: [string, Hostile][] = [
    ['non-JSON', '{"version": 1, '],
    ['an empty file', ''],
    ['null', 'null'],
    ['an array', '[]'],
    ['a string', '"journal"'],
    ['version 2', setField('version', 2)],
    ['version "1"', setField('version', '1')],
    ['an id that is not hex', setField('id', '../../../x!!')],
    ['an id in capitals', setField('id', '0123456789AB')],
    ['a missing id', without('id')],
    ['a missing entries', without('entries')],
    ['a missing base', without('base')],
    ['a base that climbs', setField('base', '..')],
    ['a base through a symlink', setField('base', 'link')],
    ['a base that is absolute', (j, w) => ({ ...j, base: w.outside })],
    ['a base that does not exist', setField('base', 'gone')],
    ['a base of a number', setField('base', 1)],
    ['an extra field', setField('extra', true)],
    ['createdDirs a string', setField('createdDirs', 'new')],
    ['createdDirs null', setField('createdDirs', null)],
    ['dirModes an array', setField('dirModes', [0o755])],
    ['dirModes null', setField('dirModes', null)],
    ['a dirMode too big', setField('dirModes', { dir: 0o10000 })],
    ['a dirMode negative', setField('dirModes', { dir: -1 })],
    ['a dirMode huge', setField('dirModes', { dir: 1e300 })],
    ['a dirMode fractional', setField('dirModes', { dir: 1.5 })],
    ['a dirMode a string', setField('dirModes', { dir: '755' })],
    ['entries an object', setField('entries', {})],
    ['an entry null', setField('entries', [null])],
    ['an entry with an extra field', withEntry(0, { mode: 0o777 })],
    [
      'an entry without remove',
      (j) => {
        const { remove: _, ...rest } = j.entries[0]!;
        j.entries[0] = rest as Entry;
        return j;
      },
    ],
    ['created a string', withEntry(1, { created: 'yes' })],
    ['path a number', withEntry(0, { path: 7 })],
    ['a backup that climbs', withEntry(0, { backup: '../../../outside/secret.txt' })],
    ['a backup in a folder', withEntry(0, { backup: 'a/b' })],
    ['a backup named journal.json', withEntry(0, { backup: 'journal.json' })],
    ['a backup with a leading zero', withEntry(0, { backup: 'backup-00' })],
    ['a backup of a number', withEntry(0, { backup: 0 })],
    ['two entries with one backup', withEntry(2, { backup: 'backup-0' })],
    ['a backup without restoreTo', withEntry(0, { restoreTo: null })],
    ['a temp that is a user file', withEntry(0, { temp: 'dir/c.txt' })],
    ['a temp of another journal', withEntry(0, { temp: '.a.txt.ffffffffffff.patchsmith-tmp' })],
    ['a temp not beside its target', withEntry(0, { temp: temp('dir', 'a.txt') })],
    ['a temp without target', withEntry(0, { target: null })],
    ['created with a backup', withEntry(0, { created: true })],
    ['a remove with a temp', withEntry(0, { remove: 'a.txt' })],
  ];
  for (const [name, path] of hostilePaths(world)) {
    const tempNamed = typeof path === 'string' ? path : path;
    list.push([`target ${name}`, withEntry(1, { target: path, temp: tempNamed })]);
    list.push([`restoreTo ${name}`, withEntry(0, { restoreTo: path })]);
    list.push([`remove ${name}`, withEntry(2, { remove: path, restoreTo: path })]);
    list.push([`createdDirs ${name}`, setField('createdDirs', [path])]);
    if (typeof path === 'string')
      list.push([`dirModes key ${name}`, setField('dirModes', { [path]: 0o777 })]);
  }
  // Our temp names, but where the journal may not reach.
  list.push([
    'a temp outside',
    (j) =>
      withEntry(0, {
        temp: '../outside/.secret.txt.0123456789ab.patchsmith-tmp',
        target: '../outside/secret.txt',
      })(j),
  ]);
  list.push([
    'a temp through a symlink',
    (j) => withEntry(0, { temp: temp('link', 'secret.txt'), target: 'link/secret.txt' })(j),
  ]);
  return list;
}

async function writeJournal(world: World, hostile: Hostile) {
  const text = typeof hostile === 'string' ? hostile : JSON.stringify(hostile(validJournal(), world));
  await fs.writeFile(join(world.stateDir, 'txn', 'journal.json'), text);
}

/** Recovery and an apply (which recovers first) refuse with STATE_INVALID, and nothing anywhere changed. */
async function expectRefused(world: World, label: string, hint = /`patchsmith recover --discard`/) {
  const before = await fingerprint(world.parent);
  const recovery = await recoverTransaction(world.root).then(
    () => null,
    (error: unknown) => error,
  );
  expect(recovery, label).toMatchObject({ code: 'STATE_INVALID' });
  expect((recovery as Error).message, label).toMatch(/is invalid: .*nothing was changed; /);
  expect((recovery as Error).message, label).toMatch(hint);
  expect(await fingerprint(world.parent), label).toEqual(before);
  const applied = await applyPlan(plan, { root: world.root });
  expect(applied, label).toMatchObject({ ok: false, errors: [{ code: 'STATE_INVALID' }] });
  expect(await fingerprint(world.parent), label).toEqual(before);
}

describe.each([
  ['in a repository', true],
  ['in a plain folder', false],
])('a journal %s is input, not trusted', (_, git) => {
  it('the valid journal itself is accepted and rolled back', async () => {
    const world = await makeWorld(git);
    await writeJournal(world, (j) => j);
    expect(await recoverTransaction(world.root)).toEqual({
      recovered: true,
      paths: ['a.txt', 'new/n.txt', 'dir/c.txt'],
    });
    expect(await fs.readFile(join(world.root, 'a.txt'), 'utf8')).toBe('a from the backup\n');
    expect(await fs.readFile(join(world.root, 'dir/c.txt'), 'utf8')).toBe('c from the backup\n');
    await expect(fs.lstat(join(world.root, temp('', 'a.txt')))).rejects.toThrow(/ENOENT/);
    await expect(fs.lstat(join(world.stateDir, 'txn'))).rejects.toThrow(/ENOENT/);
  });

  it('every hostile field is refused (STATE_INVALID) and the tree and its sibling stay byte-identical', async () => {
    const probe = await makeWorld(git);
    for (const [label, hostile] of cases(probe)) {
      const world = await makeWorld(git);
      await writeJournal(world, hostile);
      await expectRefused(world, label);
    }
  });

  it('names the file and the field', async () => {
    const world = await makeWorld(git);
    await writeJournal(world, withEntry(0, { temp: '../x' }));
    const shown = git ? '.git/patchsmith/txn/journal.json' : '.patchsmith/txn/journal.json';
    await expect(recoverTransaction(world.root)).rejects.toThrow(
      `the transaction journal ${shown} is invalid: entries[0].temp leads outside the root; nothing was changed`,
    );
  });

  it('a backup that is a symlink leading out of the tree is refused; one leading inside is restored', async () => {
    const world = await makeWorld(git);
    await writeJournal(world, (j) => j);
    await fs.rm(join(world.stateDir, 'txn', 'backup-2'));
    await fs.symlink('../../outside/secret.txt', join(world.stateDir, 'txn', 'backup-2'));
    await expectRefused(world, 'backup link out');
    const inside = await makeWorld(git);
    await writeJournal(inside, (j) => j);
    await fs.rm(join(inside.stateDir, 'txn', 'backup-2'));
    await fs.symlink('../a.txt', join(inside.stateDir, 'txn', 'backup-2'));
    expect(await recoverTransaction(inside.root)).toMatchObject({ recovered: true });
    expect(await fs.readlink(join(inside.root, 'dir', 'c.txt'))).toBe('../a.txt');
  });

  it('a journal that is a symlink to a file outside, or a FIFO, is refused unread', async () => {
    const world = await makeWorld(git);
    const outsideJournal = join(world.outside, 'journal.json');
    await fs.writeFile(outsideJournal, JSON.stringify(withEntry(0, { restoreTo: 'a.txt' })(validJournal())));
    await fs.symlink(outsideJournal, join(world.stateDir, 'txn', 'journal.json'));
    await expectRefused(world, 'symlink');
    const fifo = await makeWorld(git);
    const made = spawnSync('mkfifo', [join(fifo.stateDir, 'txn', 'journal.json')]);
    expect(made.status).toBe(0);
    await expectRefused(fifo, 'fifo');
  });

  it('a transaction folder that is a symlink to outside, or holds what we never write, is refused', async () => {
    const world = await makeWorld(git);
    await fs.rm(join(world.stateDir, 'txn'), { recursive: true });
    await fs.writeFile(join(world.outside, 'txn', 'journal.json'), JSON.stringify(validJournal()));
    await fs.symlink(join(world.outside, 'txn'), join(world.stateDir, 'txn'));
    await expectRefused(world, 'txn symlink');
    const other = await makeWorld(git);
    await fs.writeFile(join(other.stateDir, 'txn', 'notes.txt'), 'mine\n');
    await expectRefused(other, 'unknown name');
    const nested = await makeWorld(git);
    await fs.mkdir(join(nested.stateDir, 'txn', 'backup-5'));
    await expectRefused(nested, 'a folder');
  });
});

it('a plain state folder that is a symlink to outside is refused, and nothing is written there', async () => {
  const world = await makeWorld(false);
  await fs.rm(world.stateDir, { recursive: true });
  await fs.mkdir(join(world.outside, 'state', 'txn'), { recursive: true });
  await fs.writeFile(join(world.outside, 'state', 'txn', 'backup-0'), 'x\n');
  await fs.symlink(join(world.outside, 'state'), world.stateDir);
  await expectRefused(world, 'state dir symlink', /remove it by hand/);
});

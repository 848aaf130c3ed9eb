import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashBytes } from '@patchsmith/core';
import { createSnapshot } from '@patchsmith/snapshot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';
import { undoLast } from './undo.js';

let parent: string;
let root: string;
beforeEach(async () => {
  parent = await realpath(await mkdtemp(join(tmpdir(), 'patchsmith-undo-policy-')));
  root = join(parent, 'root');
  await mkdir(join(root, 'secrets'), { recursive: true });
  await writeFile(join(root, 'secrets', 'key.txt'), 'old key\n');
  await writeFile(join(root, 'a.txt'), 'one\n');
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

const read = (path: string) => readFile(join(root, path), 'utf8');
const setRules = (rules: unknown[]) =>
  writeFile(join(root, '.patchsmith.json'), JSON.stringify({ permissions: rules }));
const update = (path: string, from: string, to: string) =>
  `*** Begin Patch\n*** Update File: ${path}\n@@\n-${from}\n+${to}\n*** End Patch`;

async function apply(text: string) {
  const report = await runEdit({ kind: 'patch', text }, { root });
  expect(report.errors).toEqual([]);
  return report.snapshot!;
}

describe('undo passes the permission rules of now', () => {
  it('a deny rule added after the apply refuses the undo, with and without force', async () => {
    const id = await apply(update('secrets/key.txt', 'old key', 'new key'));
    await setRules([{ match: 'secrets/**', action: 'deny' }]);

    const plain = await undoLast({ root });
    expect(plain).toMatchObject({
      ok: false,
      undone: id,
      errors: [{ code: 'DENIED', path: 'secrets/key.txt' }],
    });
    expect(plain.errors[0]!.message).toContain(
      'rule 1 {"match": "secrets/**", "action": "deny"} of .patchsmith.json',
    );
    expect(await read('secrets/key.txt')).toBe('new key\n');

    // The user edits the file after the apply: force would overwrite it, but the rule holds.
    await writeFile(join(root, 'secrets', 'key.txt'), 'the user rotated it\n');
    expect(await undoLast({ root, force: true })).toMatchObject({ ok: false, errors: [{ code: 'DENIED' }] });
    expect(await undoLast({ root, id, force: true, ask: () => 'yes' })).toMatchObject({
      ok: false,
      errors: [{ code: 'DENIED' }],
    });
    expect(await read('secrets/key.txt')).toBe('the user rotated it\n');

    // Lifting the rule makes the same undo possible again: it was refused, not consumed.
    await setRules([]);
    expect(await undoLast({ root, force: true })).toMatchObject({ ok: true, undone: id });
    expect(await read('secrets/key.txt')).toBe('old key\n');
  });

  it('a caller policy is used instead of the config file', async () => {
    await apply(update('a.txt', 'one', 'two'));
    const policy = { rules: [{ match: 'a.txt', action: 'deny' as const }], source: 'host options' };
    const refused = await undoLast({ root, policy });
    expect(refused).toMatchObject({ ok: false, errors: [{ code: 'DENIED' }] });
    expect(refused.errors[0]!.message).toContain('of host options');
    expect(await read('a.txt')).toBe('two\n');
  });

  it('a deny rule holds for the real path a symlinked folder leads to', async () => {
    await symlink('secrets', join(root, 'docs'));
    await apply(update('docs/key.txt', 'old key', 'new key'));
    await setRules([{ match: 'secrets/**', action: 'deny' }]);
    const refused = await undoLast({ root });
    expect(refused).toMatchObject({ ok: false, errors: [{ code: 'DENIED', path: 'docs/key.txt' }] });
    expect(refused.errors[0]!.message).toContain('docs/key.txt (real path secrets/key.txt)');
    expect(await read('secrets/key.txt')).toBe('new key\n');
  });

  it('an ask rule goes to the gate: refused with no one to ask, done when the gate says yes', async () => {
    await apply(update('a.txt', 'one', 'two'));
    await setRules([{ match: 'a.txt', action: 'ask' }]);
    const refused = await undoLast({ root });
    expect(refused).toMatchObject({ ok: false, errors: [{ code: 'DENIED' }] });
    expect(refused.errors[0]!.message).toContain('Permission needed for a.txt');
    expect(await read('a.txt')).toBe('two\n');
    const asked: string[][] = [];
    const ok = await undoLast({
      root,
      ask: (plan) => {
        asked.push(plan.writes.map((w) => w.path));
        return 'yes';
      },
    });
    expect(ok).toMatchObject({ ok: true });
    expect(asked).toEqual([['a.txt']]);
    expect(await read('a.txt')).toBe('one\n');
  });

  it('a gate that says no refuses the undo', async () => {
    await apply(update('a.txt', 'one', 'two'));
    expect(await undoLast({ root, ask: () => 'no' })).toMatchObject({
      ok: false,
      errors: [{ code: 'DENIED' }],
    });
    expect(await read('a.txt')).toBe('two\n');
  });

  it('the config file is only written back when the host allows it', async () => {
    await setRules([]);
    const config = await read('.patchsmith.json');
    // An apply the host allowed to delete the config (allowConfigWrites), done by hand.
    const bytes = new TextEncoder().encode(config);
    const plan = {
      files: [],
      writes: [{ path: '.patchsmith.json', before: { hash: hashBytes(bytes), mode: 0o644 }, after: null }],
    };
    const { id } = await createSnapshot({ root, plan });
    await rm(join(root, '.patchsmith.json'));
    const refused = await undoLast({ root });
    expect(refused).toMatchObject({ ok: false, errors: [{ code: 'DENIED' }] });
    expect(refused.errors[0]!.message).toContain(".patchsmith.json is patchsmith's own config");
    await expect(read('.patchsmith.json')).rejects.toThrow();
    expect(await undoLast({ root, allowConfigWrites: true })).toMatchObject({ ok: true, undone: id });
    expect(await read('.patchsmith.json')).toBe(config);
  });

  it('a broken config is refused before anything is read or written', async () => {
    await apply(update('a.txt', 'one', 'two'));
    await writeFile(join(root, '.patchsmith.json'), '{');
    expect(await undoLast({ root })).toMatchObject({ ok: false, errors: [{ code: 'PARSE_ERROR' }] });
    expect(await read('a.txt')).toBe('two\n');
  });
});

/** Every path below `dir`, sorted. */
const listAll = async (dir: string) => ((await readdir(dir, { recursive: true })) as string[]).sort();

describe('undo and the snapshot store as input', () => {
  it('an apply whose snapshot cannot be recorded is refused before writing, with no undo id', async () => {
    const store = join(root, '.patchsmith', 'snapshots.git');
    await mkdir(store, { recursive: true });
    await writeFile(join(store, 'config'), '');
    const before = await listAll(root);
    const report = await runEdit({ kind: 'patch', text: update('a.txt', 'one', 'two') }, { root });
    expect(report).toMatchObject({ ok: false, snapshot: null, errors: [{ code: 'STATE_INVALID' }] });
    expect(report.errors[0]!.message).toContain('nothing was written; run with --no-snapshot');
    expect(await read('a.txt')).toBe('one\n');
    expect(await listAll(root)).toEqual(before);
    // --no-snapshot still works, and says no undo exists by reporting none.
    const plain = await runEdit(
      { kind: 'patch', text: update('a.txt', 'one', 'two') },
      { root, snapshot: false },
    );
    expect(plain).toMatchObject({ ok: true, snapshot: null });
  });

  it('a .git file pointing to a plain folder outside: the apply is refused or runs without a snapshot, nothing lands outside', async () => {
    await mkdir(join(parent, 'elsewhere'));
    await writeFile(join(root, '.git'), 'gitdir: ../elsewhere\n');
    const refused = await runEdit({ kind: 'patch', text: update('a.txt', 'one', 'two') }, { root });
    expect(refused).toMatchObject({ ok: false, snapshot: null, errors: [{ code: 'STATE_INVALID' }] });
    expect(refused.errors[0]!.message).toContain('not a git repository');
    expect(await read('a.txt')).toBe('one\n');
    const plain = await runEdit(
      { kind: 'patch', text: update('a.txt', 'one', 'two') },
      { root, snapshot: false },
    );
    expect(plain).toMatchObject({ ok: true, snapshot: null });
    const inRepo = await runEdit(
      { kind: 'patch', text: update('a.txt', 'two', 'three') },
      { root, snapshot: 'in-repository' },
    );
    expect(inRepo).toMatchObject({ ok: true, snapshot: null });
    expect(await undoLast({ root })).toMatchObject({ ok: false, errors: [{ code: 'STATE_INVALID' }] });
    expect(await readdir(join(parent, 'elsewhere'))).toEqual([]);
  });

  it('a hostile snapshot naming a path outside the root is STATE_INVALID, even forced; nothing is written outside', async () => {
    const git = (input: string, ...args: string[]) =>
      execFileSync('git', args, { cwd: root, input, encoding: 'utf8' }).trim();
    git('', 'init', '-q');
    const blob = git('pwned\n', 'hash-object', '-w', '--stdin');
    const id = '20990101-000000-beef';
    const manifest = {
      format: 'patchsmith-snapshot',
      version: 1,
      id,
      time: '2099-01-01T00:00:00.000Z',
      message: '',
      root: '',
      entries: [
        { path: '../outside.txt', before: { hash: 'a'.repeat(64), mode: 420, size: 6, blob }, after: null },
      ],
    };
    const manifestBlob = git(JSON.stringify(manifest), 'hash-object', '-w', '--stdin');
    const tree = git(`100644 blob ${manifestBlob}\tmanifest.json\n`, 'mktree');
    git('', 'update-ref', `refs/patchsmith/snapshots/${id}`, git('x\n', 'commit-tree', tree));
    const report = await undoLast({ root, force: true });
    expect(report).toMatchObject({ ok: false, errors: [{ code: 'STATE_INVALID' }] });
    expect(report.errors[0]!.message).toContain(`snapshot ${id}: invalid manifest: entries[0].path`);
    expect(await readdir(parent)).toEqual(['root']);
  });
});

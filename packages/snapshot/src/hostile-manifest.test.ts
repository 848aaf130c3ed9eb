import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { hashBytes } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { createSnapshot } from './create-snapshot.js';
import { listSnapshots } from './list-snapshots.js';
import { planUndo } from './plan-undo.js';
import { git, initRepo, planFor, tempDir, text, writeFile } from './test-support/fixtures.js';

/** `git` with bytes on stdin. */
const gitIn = (cwd: string, input: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, input, encoding: 'utf8' }).trim();

const ID = '20990101-000000-beef';
const PAYLOAD = 'written by a hostile snapshot\n';

/** A snapshot as a hostile clone could carry it: a manifest, a commit, a ref, made with git itself. */
function plantSnapshot(root: string, manifest: unknown, id = ID): string {
  const manifestBlob = gitIn(root, `${JSON.stringify(manifest)}\n`, 'hash-object', '-w', '--stdin');
  const tree = gitIn(root, `100644 blob ${manifestBlob}\tmanifest.json\n`, 'mktree');
  const commit = gitIn(root, 'hostile\n', 'commit-tree', tree);
  git(root, 'update-ref', `refs/patchsmith/snapshots/${id}`, commit);
  return commit;
}

/** A manifest that restores PAYLOAD at `path` (and expects it absent now). */
function restoring(root: string, path: string, overrides: Record<string, unknown> = {}) {
  const blob = gitIn(root, PAYLOAD, 'hash-object', '-w', '--stdin');
  const before = { hash: hashBytes(text(PAYLOAD)), mode: 0o644, size: PAYLOAD.length, blob };
  return {
    format: 'patchsmith-snapshot',
    version: 1,
    id: ID,
    time: '2099-01-01T00:00:00.000Z',
    message: 'hostile',
    root: '',
    entries: [{ path, before, after: null }],
    ...overrides,
  };
}

async function repoBesideSibling() {
  const parent = await tempDir();
  const root = join(parent, 'root');
  await writeFile(root, 'a.txt', 'one\n');
  await initRepo(root);
  await fs.mkdir(join(parent, 'sibling'));
  return { parent, root, sibling: join(parent, 'sibling') };
}

describe('snapshot manifests are input', () => {
  it.each([
    ['a climb out of the root', '../sibling/x.txt', 'entries[0].path: path leads outside the root'],
    ['a climb hidden in the middle', 'a/../../sibling/x.txt', 'entries[0].path: path leads outside the root'],
    ['an absolute path', '/tmp/x.txt', 'entries[0].path: path is absolute'],
    ['a path into .git/', '.git/hooks/pre-commit', 'entries[0].path: path is inside a .git folder'],
    ['a path into .GIT/', 'x/.GIT/config', 'entries[0].path: path is inside a .git folder'],
    ['a path that is not normalised', 'a/./b.txt', 'entries[0].path: path is not canonical'],
    ['an empty path', '', 'entries[0].path: path is empty'],
  ])('%s is STATE_INVALID naming the snapshot and the field; nothing is written', async (_, path, field) => {
    const { root, sibling } = await repoBesideSibling();
    plantSnapshot(root, restoring(root, path));
    const expected = `snapshot ${ID}: invalid manifest: ${field}`;
    for (const result of [
      await planUndo({ root, id: ID, force: true }),
      await planUndo({ root, force: true }),
    ]) {
      expect(result).toMatchObject({ ok: false, code: 'STATE_INVALID' });
      expect(!result.ok && result.message).toContain(expected);
    }
    const [listed] = await listSnapshots({ root });
    expect(listed).toMatchObject({ id: ID, invalid: expect.stringContaining(expected), paths: [] });
    expect(await fs.readdir(sibling)).toEqual([]);
  });

  it.each([
    ['a ref id that is not its own', { id: 'other' }, 'id: "other" is not the id of its ref'],
    ['a time that is no date', { time: '9999-99-99T99:99:99.999Z' }, 'time: not an ISO 8601 UTC time'],
    ['entries that are not a list', { entries: {} }, 'entries: not an array'],
    ['a root that climbs', { root: '../x' }, 'root: not a relative folder'],
  ])('%s is STATE_INVALID', async (_, overrides, field) => {
    const { root } = await repoBesideSibling();
    plantSnapshot(root, restoring(root, 'x.txt', overrides));
    expect(await planUndo({ root, id: ID })).toMatchObject({
      ok: false,
      code: 'STATE_INVALID',
      message: `snapshot ${ID}: invalid manifest: ${field}`,
    });
  });

  it('a path listed twice is STATE_INVALID', async () => {
    const { root } = await repoBesideSibling();
    const manifest = restoring(root, 'x.txt');
    plantSnapshot(root, { ...manifest, entries: [...manifest.entries, ...manifest.entries] });
    expect(await planUndo({ root, id: ID })).toMatchObject({
      code: 'STATE_INVALID',
      message: `snapshot ${ID}: invalid manifest: entries[1].path: x.txt is listed twice`,
    });
  });

  it('a before.blob that does not hold the recorded hash is STATE_INVALID', async () => {
    const { root } = await repoBesideSibling();
    const manifest = restoring(root, 'x.txt');
    const other = gitIn(root, 'something else\n', 'hash-object', '-w', '--stdin');
    plantSnapshot(root, {
      ...manifest,
      entries: [{ ...manifest.entries[0]!, before: { ...manifest.entries[0]!.before, blob: other } }],
    });
    const result = await planUndo({ root, id: ID });
    expect(result).toMatchObject({ ok: false, code: 'STATE_INVALID' });
    expect(!result.ok && result.message).toContain('before.blob of x.txt does not hold');
  });

  it('a well-formed planted snapshot inside the root is what git carries: undo may restore it', async () => {
    const { root } = await repoBesideSibling();
    plantSnapshot(root, restoring(root, 'x.txt'));
    const undo = await planUndo({ root, id: ID });
    expect(undo.ok && undo.plan.writes.map((w) => w.path)).toEqual(['x.txt']);
  });

  it('log lists refs that are no snapshot ids and broken commits as invalid, and keeps the good ones', async () => {
    const { root } = await repoBesideSibling();
    const plan = await planFor(root, new Map([['a.txt', { bytes: text('two\n'), mode: 0o644 }]]));
    const good = await createSnapshot({ root, plan });
    const blob = gitIn(root, 'x', 'hash-object', '-w', '--stdin');
    git(root, 'update-ref', 'refs/patchsmith/snapshots/0-nested/name', good.commit);
    git(root, 'update-ref', 'refs/patchsmith/snapshots/0000-blob', blob);
    const bell = { id: '0000-bell', time: '2000-01-01T00:00:00.000Z', message: '\u001b]0;pwned\u0007' };
    plantSnapshot(root, restoring(root, 'x.txt', bell), bell.id);
    const listed = await listSnapshots({ root });
    expect(listed.map((s) => [s.id, s.invalid === null])).toEqual([
      [good.id, true],
      ['0000-bell', true],
      ['0000-blob', false],
      ['0-nested/name', false],
    ]);
    // An invalid snapshot older than the newest good one does not block undo of the latest.
    const undo = await planUndo({ root, force: true });
    expect(undo.ok && undo.snapshot.id).toBe(good.id);
    // A newer one might be the apply meant: refused by name, not skipped.
    git(root, 'update-ref', 'refs/patchsmith/snapshots/99991231-235959-ffff', blob);
    const blocked = await planUndo({ root, force: true });
    expect(blocked).toMatchObject({ ok: false, code: 'STATE_INVALID' });
    expect(!blocked.ok && blocked.message).toMatch(
      /99991231-235959-ffff.*give an id, or remove refs\/patchsmith\/snapshots\/99991231-235959-ffff/,
    );
    expect(await planUndo({ root, id: good.id, force: true })).toMatchObject({ ok: true });
  });
});

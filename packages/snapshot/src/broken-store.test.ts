import * as nodeFs from 'node:fs';
import * as fs from 'node:fs/promises';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshot } from './create-snapshot.js';
import type { SnapshotFs } from './fs.js';
import { listSnapshots } from './list-snapshots.js';
import { planUndo } from './plan-undo.js';
import { type DiskFile, git, initRepo, planFor, tempDir, text, writeFile } from './test-support/fixtures.js';

const errno = (code: string) => Object.assign(new Error(`${code}: injected`), { code });

/** node's fs, with `writeFile` replaced for the paths `matches` picks. */
function failingWrites(
  matches: (path: string) => boolean,
  write: (path: string) => Promise<void>,
): SnapshotFs {
  const real = nodeFs.promises.writeFile;
  const promises = {
    ...nodeFs.promises,
    writeFile: (path: string, ...rest: [never]) =>
      matches(String(path)) ? write(String(path)) : real(path, ...rest),
  };
  return { promises } as unknown as SnapshotFs;
}

async function plainRoot() {
  const root = await tempDir();
  await writeFile(root, 'a.txt', 'one\n');
  const plan = await planFor(
    root,
    new Map<string, DiskFile | null>([['a.txt', { bytes: text('two\n'), mode: 0o644 }]]),
  );
  return { root, plan, store: join(root, '.patchsmith', 'snapshots.git') };
}

/** The snapshot refs git itself sees in a store. */
const refsIn = (gitdir: string) => git(gitdir, 'for-each-ref', 'refs/patchsmith');

describe('a snapshot that cannot be recorded is an error, never an id', () => {
  it('a private store left with only an empty config (a full disk during its creation)', async () => {
    const { root, plan, store } = await plainRoot();
    await fs.mkdir(store, { recursive: true });
    await fs.writeFile(join(store, 'config'), '');
    const error = await createSnapshot({ root, plan }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STATE_INVALID' });
    expect((error as Error).message).toBe(
      `no snapshot could be recorded: the snapshot store at ${store} is broken (${store} has no HEAD file); ` +
        `repair or remove ${store}; nothing was written; run with --no-snapshot`,
    );
    expect(await fs.readdir(store)).toEqual(['config']);
    // log and undo say the same, not "no snapshots"
    await expect(listSnapshots({ root })).rejects.toMatchObject({ code: 'STATE_INVALID' });
    expect(await planUndo({ root })).toMatchObject({ ok: false, code: 'STATE_INVALID' });
  });

  it('an objects folder that refuses writes (EACCES; root ignores modes, so injected)', async () => {
    const { root, plan, store } = await plainRoot();
    const fsx = failingWrites(
      (path) => path.includes(`${sep}objects${sep}`),
      async () => {
        throw errno('EACCES');
      },
    );
    const error = await createSnapshot({ root, plan, fs: fsx }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'IO_ERROR' });
    expect((error as Error).message).toMatch(/^no snapshot could be recorded: .*EACCES.*nothing was written/);
    expect(refsIn(store)).toBe('');
    expect(await listSnapshots({ root })).toEqual([]);
  });

  it('a disk that fills up (ENOSPC) when the ref is written, inside a repository', async () => {
    const root = await tempDir();
    await initRepo(root);
    await writeFile(root, 'a.txt', 'one\n');
    const plan = await planFor(root, new Map([['a.txt', { bytes: text('two\n'), mode: 0o644 }]]));
    const fsx = failingWrites(
      (path) => path.includes(`${sep}refs${sep}patchsmith${sep}`),
      async () => {
        throw errno('ENOSPC');
      },
    );
    const error = await createSnapshot({ root, plan, fs: fsx }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'IO_ERROR' });
    expect((error as Error).message).toContain('ENOSPC');
    expect((error as Error).message).toContain('repair');
    expect((error as Error).message).not.toContain('remove');
    expect(refsIn(join(root, '.git'))).toBe('');
  });

  it('a store that takes the writes but keeps nothing is caught by reading the snapshot back', async () => {
    const { root, plan, store } = await plainRoot();
    const fsx = failingWrites(
      (path) => path.includes(`${sep}refs${sep}patchsmith${sep}`),
      async () => {},
    );
    const error = await createSnapshot({ root, plan, fs: fsx }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STATE_INVALID' });
    expect((error as Error).message).toMatch(
      /reading snapshot \S+ back, refs\/patchsmith\/snapshots\/\S+ is not listed/,
    );
    expect(refsIn(store)).toBe('');
  });

  it('a saved content that reads back different (a corrupt object already in the store) drops the ref', async () => {
    const { root, plan, store } = await plainRoot();
    // The object a.txt's content would be stored as, already there with other bytes (git skips existing objects).
    const first = await createSnapshot({ root, plan });
    const blob = git(store, 'rev-parse', `${first.ref}:files/a.txt`).trim();
    const other = git(store, 'rev-parse', `${first.ref}:manifest.json`).trim();
    const objects = join(store, 'objects');
    const target = join(objects, blob.slice(0, 2), blob.slice(2));
    await fs.chmod(target, 0o644);
    await fs.copyFile(join(objects, other.slice(0, 2), other.slice(2)), target);
    git(store, 'update-ref', '-d', first.ref);

    const error = await createSnapshot({ root, plan }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STATE_INVALID' });
    expect((error as Error).message).toMatch(
      /is broken \(SHA check failed! Expected [0-9a-f]{40}, computed [0-9a-f]{40}\); nothing was written/,
    );
    expect(refsIn(store)).toBe('');
  });

  it('a .patchsmith state folder that is a symlink out of the root gets no store', async () => {
    const { root, plan } = await plainRoot();
    const outside = await tempDir();
    await fs.symlink(outside, join(root, '.patchsmith'));
    await expect(createSnapshot({ root, plan })).rejects.toMatchObject({ code: 'STATE_INVALID' });
    expect(await fs.readdir(outside)).toEqual([]);
    await fs.rm(join(root, '.patchsmith'));
    await fs.mkdir(join(root, '.patchsmith'));
    await fs.symlink(join(outside, 'nothing'), join(root, '.patchsmith', 'snapshots.git'));
    await expect(createSnapshot({ root, plan })).rejects.toMatchObject({ code: 'STATE_INVALID' });
    expect(await fs.readdir(outside)).toEqual([]);
  });
});

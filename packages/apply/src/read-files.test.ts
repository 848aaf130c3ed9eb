import * as nodeFs from 'node:fs/promises';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_FILE_BYTES } from '@patchsmith/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionFs } from './fs.js';
import { readFiles } from './read-files.js';
import { bytes, makeRoot, materialize, removeRoot } from './test-support/tree.js';

let root: string;
let outside: string;

beforeAll(async () => {
  root = await makeRoot();
  outside = await mkdtemp(join(tmpdir(), 'patchsmith-outside-'));
  await writeFile(join(outside, 'secret.txt'), 'outside\n');
  await materialize(root, {
    files: {
      'plain.txt': { bytes: bytes('plain\n'), mode: 0o640 },
      'run.sh': { bytes: bytes('#!/bin/sh\n'), mode: 0o755 },
      'real/inner.txt': { bytes: bytes('inner\n'), mode: 0o644 },
      '.git/config': { bytes: bytes('[core]\n'), mode: 0o644 },
    },
    dirs: ['dir'],
  });
  await symlink(join(outside, 'secret.txt'), join(root, 'link-out.txt'));
  await symlink(outside, join(root, 'dir-out'));
  await symlink('plain.txt', join(root, 'link-in.txt'));
  await symlink('real', join(root, 'dir-in'));
  await symlink('nothing-here', join(root, 'dangling'));
  await symlink('../../nowhere', join(root, 'dangling-out'));
  await symlink('.git', join(root, 'git-link'));
  await mkdir(join(root, 'sub'));
});

afterAll(async () => {
  await removeRoot(root);
  await removeRoot(outside);
});

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('readFiles', () => {
  const refused = (code: string) => ({ kind: 'refused', code });
  it.each([
    ['symlink out of the root', 'link-out.txt', refused('PATH_OUTSIDE_ROOT')],
    ['below a symlinked folder out of the root', 'dir-out/secret.txt', refused('PATH_OUTSIDE_ROOT')],
    ['a missing file below a symlinked folder out', 'dir-out/new.txt', refused('PATH_OUTSIDE_ROOT')],
    ['a dangling symlink that points out', 'dangling-out', refused('PATH_OUTSIDE_ROOT')],
    ['..', '../escape.txt', refused('PATH_OUTSIDE_ROOT')],
    ['an absolute path elsewhere', '/etc/hostname', refused('PATH_OUTSIDE_ROOT')],
    ['into .git', '.git/config', refused('PATH_INVALID')],
    ['into a nested .git', 'sub/.git/HEAD', refused('PATH_INVALID')],
    ['into .GIT', '.GIT/config', refused('PATH_INVALID')],
    ['into .git through a symlink', 'git-link/config', refused('PATH_INVALID')],
    ['a NUL byte', 'a\0b', refused('PATH_INVALID')],
    ['empty', '', refused('PATH_INVALID')],
    // Missing, naming the file in the way: only a plan that removes it may write there.
    ['below a file (ENOTDIR)', 'plain.txt/child.txt', { kind: 'missing', belowFile: 'plain.txt' }],
    ['deep below a file', 'plain.txt/a/b.txt', { kind: 'missing', belowFile: 'plain.txt' }],
    ['a dangling symlink inside', 'dangling', refused('NOT_A_FILE')],
    ['missing', 'missing.txt', { kind: 'missing' }],
    ['missing in a missing folder', 'new/deeper/file.txt', { kind: 'missing' }],
    ['a directory', 'dir', { kind: 'directory' }],
    ['a symlink to a directory', 'dir-in', { kind: 'directory' }],
  ])('%s: %s', async (_name, path, expected) => {
    const states = await readFiles(root, [path]);
    expect(states.get(path)).toMatchObject(expected);
  });

  it('reads a file with its bytes and permission bits', async () => {
    const states = await readFiles(root, ['plain.txt', 'run.sh']);
    const plain = states.get('plain.txt');
    const run = states.get('run.sh');
    expect(plain?.kind === 'file' && [text(plain.bytes), plain.mode]).toEqual(['plain\n', 0o640]);
    expect(run?.kind === 'file' && [text(run.bytes), run.mode]).toEqual(['#!/bin/sh\n', 0o755]);
  });

  it("gives what each file's stat said (through a symlink, the target's), and no hash: none is needed yet", async () => {
    const states = await readFiles(root, ['plain.txt', 'link-in.txt']);
    const real = await nodeFs.stat(join(root, 'plain.txt'));
    const identity = { dev: real.dev, ino: real.ino, size: 6, mtimeMs: real.mtimeMs, mode: real.mode };
    expect(states.get('plain.txt')).toMatchObject({ kind: 'file', stat: identity });
    expect(states.get('link-in.txt')).toMatchObject({ kind: 'file', stat: identity });
    expect(states.get('plain.txt')).not.toHaveProperty('hash');
  });

  it('follows symlinks that stay inside the root to their target', async () => {
    const states = await readFiles(root, ['link-in.txt', 'dir-in/inner.txt']);
    const link = states.get('link-in.txt');
    const inner = states.get('dir-in/inner.txt');
    expect(link?.kind === 'file' && text(link.bytes)).toBe('plain\n');
    expect(inner?.kind === 'file' && text(inner.bytes)).toBe('inner\n');
  });

  it('gives the real path of a path that leads elsewhere, for the permission rules', async () => {
    const states = await readFiles(root, ['link-in.txt', 'dir-in/inner.txt', 'dir-in/new.txt', 'plain.txt']);
    expect(states.get('link-in.txt')).toMatchObject({ kind: 'file', realPath: 'plain.txt' });
    expect(states.get('dir-in/inner.txt')).toMatchObject({ kind: 'file', realPath: 'real/inner.txt' });
    expect(states.get('dir-in/new.txt')).toEqual({ kind: 'missing', realPath: 'real/new.txt' });
    expect(states.get('plain.txt')).not.toHaveProperty('realPath');
  });

  it('refuses the private state folder when there is no repository', async () => {
    const bare = await makeRoot({ git: false });
    try {
      await materialize(bare, { files: { 'a.txt': { bytes: bytes('a'), mode: 0o644 } } });
      const states = await readFiles(bare, ['.patchsmith/lock', 'a.txt']);
      expect(states.get('.patchsmith/lock')).toMatchObject(refused('PATH_INVALID'));
      expect(states.get('a.txt')).toMatchObject({ kind: 'file' });
    } finally {
      await removeRoot(bare);
    }
  });

  it('refuses a file larger than it edits as TOO_LARGE without reading it', async () => {
    const bare = await makeRoot({ git: false });
    try {
      // Sparse: it takes no disk, and a read of it would take 512 MiB of memory.
      const handle = await nodeFs.open(join(bare, 'huge.log'), 'w');
      await handle.truncate(MAX_FILE_BYTES + 1);
      await handle.close();
      let read = 0;
      const counting: TransactionFs = {
        ...nodeFs,
        readFile: (async (...args: Parameters<typeof nodeFs.readFile>) => {
          read++;
          return nodeFs.readFile(...args);
        }) as TransactionFs['readFile'],
      };
      const states = await readFiles(bare, ['huge.log'], { fs: counting });
      expect(states.get('huge.log')).toMatchObject(refused('TOO_LARGE'));
      expect(read).toBe(0);
    } finally {
      await removeRoot(bare);
    }
  });

  it('throws IO_ERROR for a root that does not exist', async () => {
    await expect(readFiles(join(root, 'no-such-root'), ['a'])).rejects.toMatchObject({ code: 'IO_ERROR' });
  });
});

describe('readFiles on many paths', () => {
  it('looks each shared folder up once, reads the files concurrently, and answers every path', async () => {
    const many = await makeRoot();
    try {
      const paths = Array.from({ length: 40 }, (_, i) => `deep/er/f-${i}.txt`);
      await materialize(many, {
        files: Object.fromEntries(paths.map((p, i) => [p, { bytes: bytes(`f ${i}\n`), mode: 0o644 }])),
      });
      const lstats = new Map<string, number>();
      const gate = { inFlight: 0, max: 0, waiting: [] as (() => void)[] };
      const release = () => {
        for (const go of gate.waiting.splice(0)) go();
      };
      const fs: TransactionFs = {
        ...nodeFs,
        lstat: (p) => {
          lstats.set(p, (lstats.get(p) ?? 0) + 1);
          return nodeFs.lstat(p);
        },
        // The first reads wait until four are in flight together (or a moment, if they never are).
        readFile: (async (p: string, encoding?: 'utf8') => {
          gate.inFlight += 1;
          gate.max = Math.max(gate.max, gate.inFlight);
          if (gate.inFlight >= 4) release();
          else if (gate.max < 4) {
            const fallback = setTimeout(release, 1000);
            await new Promise<void>((go) => gate.waiting.push(go));
            clearTimeout(fallback);
          }
          try {
            return encoding ? await nodeFs.readFile(p, encoding) : await nodeFs.readFile(p);
          } finally {
            gate.inFlight -= 1;
          }
        }) as TransactionFs['readFile'],
      };
      const states = await readFiles(many, [...paths, paths[0]!], { fs });
      expect([...states.keys()]).toEqual(paths);
      paths.forEach((p, i) => {
        const state = states.get(p);
        expect(state?.kind === 'file' && text(state.bytes)).toBe(`f ${i}\n`);
      });
      expect(gate.max).toBeGreaterThanOrEqual(4);
      expect(lstats.get(join(many, 'deep'))).toBe(1);
      expect(lstats.get(join(many, 'deep', 'er'))).toBe(1);
      for (const p of paths) expect(lstats.get(join(many, p))).toBe(1);
    } finally {
      await removeRoot(many);
    }
  });
});

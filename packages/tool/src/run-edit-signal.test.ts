import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syncFs } from '@patchsmith/apply';
import type { PatchsmithFs } from '@patchsmith/core';
import { listSnapshots } from '@patchsmith/snapshot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EditProgress } from './progress.js';
import { runEdit } from './run-edit.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-signal-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  await writeFile(join(root, 'a.txt'), 'one\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const patch = {
  kind: 'patch',
  text: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** Add File: b.txt\n+new\n*** End Patch',
} as const;
const tree = async () => ({
  a: await readFile(join(root, 'a.txt'), 'utf8'),
  entries: (await readdir(root)).sort(),
});
/** The snapshots recorded in the root: an aborted call leaves none behind. */
const snapshotCount = async () => (await listSnapshots({ root })).length;

describe('runEdit with a signal', () => {
  it('writes nothing when the signal is aborted before the call', async () => {
    const before = await tree();
    const controller = new AbortController();
    controller.abort();
    const report = await runEdit(patch, { root, signal: controller.signal });
    expect(report.ok).toBe(false);
    expect(report.errors.map((e) => e.code)).toEqual(['ABORTED']);
    expect(await tree()).toEqual(before);
  });

  it('writes nothing when the host cancels while the gate is asking', async () => {
    const before = await tree();
    const controller = new AbortController();
    const report = await runEdit(patch, {
      root,
      signal: controller.signal,
      ask: async () => {
        controller.abort();
        return 'yes' as const;
      },
    });
    expect(report).toMatchObject({ ok: false, snapshot: null, errors: [{ code: 'ABORTED' }] });
    expect(await tree()).toEqual(before);
    expect(await snapshotCount()).toBe(0);
  });

  it('reports each stage, then applies when nobody cancels', async () => {
    const seen: EditProgress[] = [];
    const controller = new AbortController();
    const report = await runEdit(patch, { root, signal: controller.signal, onProgress: (p) => seen.push(p) });
    expect(report.ok).toBe(true);
    expect(seen).toEqual([
      { stage: 'planning', files: 0 },
      { stage: 'asking', files: 2 },
      { stage: 'writing', files: 2 },
    ]);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('two\n');
    expect(await snapshotCount()).toBe(1);
  });

  it('over syncFs, a cancel that arrives while planning (as a message would, on the event loop) stops the call', async () => {
    const before = await tree();
    const controller = new AbortController();
    // The cancel is queued, not delivered: it runs only when the event loop gets a turn, which
    // synchronous fs calls never give it.
    const fs: PatchsmithFs = {
      ...syncFs,
      readFile: ((path: string, encoding?: 'utf8') => {
        if (path.endsWith('a.txt')) setImmediate(() => controller.abort());
        return encoding === undefined ? syncFs.readFile(path) : syncFs.readFile(path, encoding);
      }) as PatchsmithFs['readFile'],
    };
    const report = await runEdit(patch, { root, fs, signal: controller.signal });
    expect(report).toMatchObject({ ok: false, snapshot: null, errors: [{ code: 'ABORTED' }] });
    expect(await tree()).toEqual(before);
    expect(await snapshotCount()).toBe(0);
  });

  it('does not stop an apply whose writes began', async () => {
    const controller = new AbortController();
    const report = await runEdit(patch, {
      root,
      signal: controller.signal,
      onProgress: ({ stage }) => stage === 'writing' && controller.abort(),
    });
    expect(report.ok).toBe(true);
    expect(await tree()).toEqual({ a: 'two\n', entries: ['.git', 'a.txt', 'b.txt'] });
  });
});

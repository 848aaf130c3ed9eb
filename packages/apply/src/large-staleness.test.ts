/** The staleness check of a large file, compared with the planned bytes piece by piece: every change is caught, whatever the fs. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { diskFs } from '@patchsmith/core';
import type { Plan } from '@patchsmith/planner';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import type { TransactionFs } from './fs.js';
import { syncFs } from './sync-fs.js';
import { makeRoot, removeRoot, shapeOf } from './test-support/tree.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await removeRoot(root);
});

/** About 600 KB: three pieces of the comparison's buffer, the last one short. */
const original = new TextEncoder().encode(
  Array.from({ length: 9_000 }, (_, i) => `line ${i} ${'x'.repeat(60)}`).join('\n'),
);
const edited = new TextEncoder().encode(`${new TextDecoder().decode(original)}\nend\n`);

/** Node's fs, its open files without `read`: the file is then read whole. */
const withoutRead: TransactionFs = {
  ...diskFs,
  open: async (path, flags, mode) => {
    const handle = await diskFs.open(path, flags, mode);
    return {
      writeFile: (data) => handle.writeFile(data),
      chmod: (m) => handle.chmod(m),
      sync: () => handle.sync(),
      close: () => handle.close(),
    };
  },
};

/** Node's fs, counting whole-file reads by path. */
function countingReads(): { fs: TransactionFs; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const readWhole = ((path: string, encoding?: 'utf8') => {
    reads.set(path, (reads.get(path) ?? 0) + 1);
    return encoding === undefined ? diskFs.readFile(path) : diskFs.readFile(path, encoding);
  }) as TransactionFs['readFile'];
  return { fs: { ...diskFs, readFile: readWhole }, reads };
}

async function setup(): Promise<{ root: string; plan: Plan }> {
  const root = await makeRoot();
  roots.push(root);
  await writeFile(join(root, 'big.txt'), original);
  const plan: Plan = {
    files: [],
    writes: [
      {
        path: 'big.txt',
        before: { hash: 'unused: the bytes are compared', mode: 0o644, bytes: original },
        after: { bytes: edited, mode: 0o644 },
      },
    ],
  };
  return { root, plan };
}

/** What someone else does to the file between plan and apply. */
const changes: [string, (bytes: Uint8Array) => Uint8Array][] = [
  ['one byte of the last piece changed', (b) => b.map((v, i) => (i === b.length - 2 ? v ^ 1 : v))],
  ['one byte of the first piece changed', (b) => b.map((v, i) => (i === 10 ? v ^ 1 : v))],
  ['a byte appended', (b) => new Uint8Array([...b, 10])],
  ['the last byte cut', (b) => b.subarray(0, b.length - 1)],
  ['cut at a piece boundary', (b) => b.subarray(0, 256 * 1024)],
];

const filesystems: [string, TransactionFs | undefined][] = [
  ['the default fs', undefined],
  ['syncFs', syncFs],
  ['an fs whose files cannot read', withoutRead],
];

describe.each(filesystems)('a large file over %s', (_name, fs) => {
  it('is written when it is the one planned', async () => {
    const { root, plan } = await setup();
    const result = await applyPlan(plan, { root, ...(fs && { fs }) });
    expect(result.ok).toBe(true);
    expect(Buffer.from(await readFile(join(root, 'big.txt'))).equals(Buffer.from(edited))).toBe(true);
  });

  it.each(changes)('is STALE with %s, and nothing is written', async (_what, change) => {
    const { root, plan } = await setup();
    await writeFile(join(root, 'big.txt'), change(original));
    const before = await shapeOf(root);
    const result = await applyPlan(plan, { root, ...(fs && { fs }) });
    expect(result).toMatchObject({ ok: false, errors: [{ code: 'STALE', path: 'big.txt' }] });
    expect(await shapeOf(root)).toEqual(before);
  });
});

describe('the comparison in pieces', () => {
  it('does not read a large file whole when its handles can read', async () => {
    const { root, plan } = await setup();
    const { fs, reads } = countingReads();
    expect((await applyPlan(plan, { root, fs })).ok).toBe(true);
    expect(reads.get(join(root, 'big.txt')) ?? 0).toBe(0);
  });
});

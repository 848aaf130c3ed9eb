import { hashBytes } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { planRestore } from './plan-restore.js';
import { directory, file, missing } from './test-support/script.js';
import type { FileState } from './types.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('planRestore', () => {
  it('adds, updates and deletes to reach the targets, with diffs and counts', () => {
    const current = new Map<string, FileState>([
      ['created', file('new\n')],
      ['changed', file('after\n', 0o755)],
      ['removed', missing],
    ]);
    const targets = new Map([
      ['created', null],
      ['changed', { bytes: bytes('before\n'), mode: 0o755 }],
      ['removed', { bytes: bytes('x\ny\n'), mode: 0o600 }],
    ]);
    const plan = planRestore(current, targets);
    expect(plan.files).toEqual([
      {
        path: 'created',
        op: 'delete',
        additions: 0,
        deletions: 1,
        diff: '--- created\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-new\n',
        chunks: [],
      },
      {
        path: 'changed',
        op: 'update',
        additions: 1,
        deletions: 1,
        diff: '--- changed\n+++ changed\n@@ -1,1 +1,1 @@\n-after\n+before\n',
        chunks: [],
      },
      {
        path: 'removed',
        op: 'add',
        additions: 2,
        deletions: 0,
        diff: '--- /dev/null\n+++ removed\n@@ -0,0 +1,2 @@\n+x\n+y\n',
        chunks: [],
      },
    ]);
    expect(plan.writes).toEqual([
      {
        path: 'created',
        before: { hash: hashBytes(bytes('new\n')), mode: 0o644, bytes: bytes('new\n') },
        after: null,
      },
      {
        path: 'changed',
        before: { hash: hashBytes(bytes('after\n')), mode: 0o755, bytes: bytes('after\n') },
        after: { bytes: bytes('before\n'), mode: 0o755 },
      },
      { path: 'removed', before: null, after: { bytes: bytes('x\ny\n'), mode: 0o600 } },
    ]);
  });

  it('leaves out paths already as wanted, and restores a mode-only change', () => {
    const current = new Map<string, FileState>([
      ['same', file('s\n')],
      ['gone', missing],
      ['mode', file('m\n', 0o755)],
      ['unread-and-absent', directory],
    ]);
    const targets = new Map([
      ['same', { bytes: bytes('s\n'), mode: 0o644 }],
      ['gone', null],
      ['mode', { bytes: bytes('m\n'), mode: 0o644 }],
      ['unread-and-absent', null],
      ['not-in-current', null],
    ]);
    const plan = planRestore(current, targets);
    expect(plan.files).toEqual([
      { path: 'mode', op: 'update', additions: 0, deletions: 0, diff: '--- mode\n+++ mode\n', chunks: [] },
    ]);
    expect(plan.writes).toEqual([
      {
        path: 'mode',
        before: { hash: hashBytes(bytes('m\n')), mode: 0o755, bytes: bytes('m\n') },
        after: { bytes: bytes('m\n'), mode: 0o644 },
      },
    ]);
  });

  it('restores binary content byte for byte', () => {
    const bin = new Uint8Array([0, 255, 1]);
    const plan = planRestore(new Map([['b', file('text\n')]]), new Map([['b', { bytes: bin, mode: 0o644 }]]));
    expect(plan.writes[0]?.after?.bytes).toEqual(bin);
    expect(plan.files[0]?.diff).toContain('Binary files b and b differ');
  });

  it('throws with a stable code when a folder or a refused path stands where a file must go', () => {
    const target = new Map([['p', { bytes: bytes('x'), mode: 0o644 }]]);
    expect(() => planRestore(new Map([['p', directory]]), target)).toThrow(
      expect.objectContaining({ code: 'NOT_A_FILE' }),
    );
    const refused: FileState = { kind: 'refused', code: 'PATH_OUTSIDE_ROOT', message: 'symlink out' };
    expect(() => planRestore(new Map([['p', refused]]), target)).toThrow(
      expect.objectContaining({ code: 'PATH_OUTSIDE_ROOT' }),
    );
  });
});

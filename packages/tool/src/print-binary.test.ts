/**
 * `printUnifiedDiff` (what `patchsmith diff` prints) writes a binary change as a `GIT binary
 * patch`: patchsmith reads it back to the same writes (a fast-check round trip), and `git apply`
 * applies it byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BinaryPatch, EditScript } from '@patchsmith/core';
import { parseUnified } from '@patchsmith/grammar';
import { type FileState, type PlannedWrite, planEdits, printUnifiedDiff } from '@patchsmith/planner';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const ROOT = '/virtual/root';

/** Bytes git sees as binary: a NUL first. */
const binary = fc.uint8Array({ maxLength: 400 }).map((b) => Uint8Array.from([0, ...b]));

/** A binary op that writes `after` over whatever the path holds (its checks come from the printed patch). */
function writeOp(
  path: string,
  change: BinaryPatch['change'],
  after: Uint8Array,
  movePath?: string,
): BinaryPatch {
  return {
    kind: 'binary',
    change,
    path,
    ...(movePath !== undefined ? { movePath } : {}),
    forward: { method: 'literal', data: after, line: 1 },
    line: 1,
  };
}

const shown = (writes: readonly PlannedWrite[]) =>
  writes.map((w) => ({
    path: w.path,
    after: w.after === null ? null : Buffer.from(w.after.bytes).toString('hex'),
  }));

describe('printUnifiedDiff of binary changes', () => {
  it('reads back to the same writes: updates, adds, deletes, renames', () => {
    fc.assert(
      fc.property(
        binary,
        binary,
        fc.constantFrom('update', 'add', 'delete', 'move'),
        (before, after, kind) => {
          const files = new Map<string, FileState>([
            ['a.bin', kind === 'add' ? { kind: 'missing' } : { kind: 'file', bytes: before, mode: 0o644 }],
            ['b.bin', { kind: 'missing' }],
          ]);
          const op =
            kind === 'move'
              ? writeOp('a.bin', 'update', after, 'b.bin')
              : writeOp('a.bin', kind, kind === 'delete' ? new Uint8Array(0) : after);
          const script: EditScript = { format: 'unified', operations: [op] };
          const planned = planEdits(script, files, { root: ROOT });
          fc.pre(planned.ok);
          if (!planned.ok) return;
          const printed = printUnifiedDiff(planned.plan);
          // A rename that keeps the bytes is a rename alone, as git prints it.
          const pureRename = kind === 'move' && Buffer.from(before).equals(Buffer.from(after));
          expect(printed.includes('GIT binary patch')).toBe(!pureRename);
          const parsed = parseUnified(printed);
          expect(parsed.ok).toBe(true);
          if (!parsed.ok) return;
          const again = planEdits(parsed.value, files, { root: ROOT });
          expect(again.ok).toBe(true);
          if (again.ok) expect(shown(again.plan.writes)).toEqual(shown(planned.plan.writes));
        },
      ),
      // The case that once failed: a binary file renamed with its bytes kept.
      { numRuns: 60, examples: [[Uint8Array.from([0]), Uint8Array.from([0]), 'move']] },
    );
  });

  it('is what git apply applies byte for byte', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'patchsmith-print-binary-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: dir });
      const before = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
      const after = Buffer.concat([before.subarray(0, 100), Buffer.from([0, 1, 2]), before.subarray(200)]);
      await writeFile(join(dir, 'x.bin'), before);
      const op = writeOp('x.bin', 'update', after);
      const files = new Map<string, FileState>([['x.bin', { kind: 'file', bytes: before, mode: 0o644 }]]);
      const plan = planEdits({ format: 'unified', operations: [op] }, files, { root: dir });
      if (!plan.ok) throw new Error(JSON.stringify(plan.errors));
      await writeFile(join(dir, 'change.patch'), printUnifiedDiff(plan.plan));
      execFileSync('git', ['apply', '--check', 'change.patch'], { cwd: dir });
      execFileSync('git', ['apply', 'change.patch'], { cwd: dir });
      expect(await readFile(join(dir, 'x.bin'))).toEqual(after);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parsePatch, parseUnified } from '@patchsmith/grammar';
import { afterAll, describe, expect, it } from 'vitest';
import { planEdits } from './plan-edits.js';
import { printUnifiedDiff } from './print-unified-diff.js';
import type { FileState, Plan } from './types.js';

const encoder = new TextEncoder();
const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

const before: Record<string, { text: string; mode: number }> = {
  'src/app.ts': { text: 'a\nb\nc\nd\ne\nf\ng\nh\n', mode: 0o644 },
  'crlf.txt': { text: 'one\r\ntwo\r\n', mode: 0o644 },
  'no newline.txt': { text: 'x\ny', mode: 0o755 },
  'old/name.txt': { text: 'keep\nme\n', mode: 0o644 },
  'gone.txt': { text: 'bye\n', mode: 0o644 },
};

const patch = `*** Begin Patch
*** Update File: src/app.ts
@@
 b
-c
+C
@@
 g
-h
+H
*** Update File: crlf.txt
@@
-two
+TWO
*** Update File: no newline.txt
@@
-y
+z
*** Update File: old/name.txt
*** Move to: new/naïve name.txt
@@
-me
+you
*** Delete File: gone.txt
*** Add File: added.txt
+fresh
*** End Patch
`;

function state(): Map<string, FileState> {
  const files = new Map<string, FileState>();
  for (const [path, { text, mode }] of Object.entries(before))
    files.set(path, { kind: 'file', bytes: encoder.encode(text), mode });
  for (const path of ['new/naïve name.txt', 'added.txt']) files.set(path, { kind: 'missing' });
  return files;
}

/** The plan of `patch`, without the CRLF file when `lfOnly` (the printed diff shows endings as LF, as git apply would not expect). */
function planOf(lfOnly = false): Plan {
  const text = lfOnly ? patch.replace('*** Update File: crlf.txt\n@@\n-two\n+TWO\n', '') : patch;
  const parsed = parsePatch(text);
  if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
  const planned = planEdits(parsed.value, state(), { root: '/r' });
  if (!planned.ok) throw new Error(planned.errors[0]?.message);
  return planned.plan;
}

describe('printUnifiedDiff', () => {
  it('prints a diff that git apply applies to the same result as the plan (LF files)', async () => {
    const plan = planOf(true);
    const dir = await mkdtemp(join(tmpdir(), 'patchsmith-print-'));
    temps.push(dir);
    for (const [path, { text, mode }] of Object.entries(before)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text, { mode });
    }
    const diff = printUnifiedDiff(plan);
    expect(diff).toContain('diff --git a/old/name.txt "b/new/na\\303\\257ve name.txt"');
    const applied = spawnSync('git', ['apply', '-'], { cwd: dir, input: diff });
    expect(applied.stderr.toString()).toBe('');
    expect(applied.status).toBe(0);
    for (const write of plan.writes) {
      const full = join(dir, write.path);
      if (write.after === null) {
        await expect(stat(full)).rejects.toThrow();
        continue;
      }
      expect(new Uint8Array(await readFile(full))).toStrictEqual(write.after.bytes);
      expect((await stat(full)).mode & 0o777).toBe(write.after.mode);
    }
  });

  it('parseUnified of the printed diff plans the same writes (a CRLF file included)', () => {
    const plan = planOf();
    const parsed = parseUnified(printUnifiedDiff(plan));
    if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
    const replanned = planEdits(parsed.value, state(), { root: '/r' });
    if (!replanned.ok) throw new Error(JSON.stringify(replanned.errors));
    expect(replanned.plan.writes).toStrictEqual(plan.writes);
  });
});

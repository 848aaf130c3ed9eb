import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReplaceText } from '@patchsmith/core';
import { describe, expect, it } from 'vitest';
import { perFile } from './per-file.js';
import { planEdits } from './plan-edits.js';
import { chunk, file, files, missing, ROOT, script, text, update } from './test-support/script.js';
import type { Plan } from './types.js';

const replace = (path: string, search: string, replacement: string, line: number): ReplaceText => ({
  kind: 'replace',
  path,
  search,
  replace: replacement,
  all: false,
  wholeLines: false,
  line,
});

const START = 'one\ntwo\nthree\nfour\nfive\n';

function planned(...ops: Parameters<typeof script>): Plan {
  const result = planEdits(
    script(...ops),
    files({ 'a.txt': file(START), 'b.txt': file(START), 'c.txt': missing }),
    { root: ROOT },
  );
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.plan;
}

describe('perFile', () => {
  it('reports many edits of one file as one record with their totals, chunks numbered on', () => {
    const plan = planned(
      replace('a.txt', 'two', 'TWO', 1),
      replace('a.txt', 'four\n', '', 2),
      replace('b.txt', 'one', 'ONE', 3),
      replace('a.txt', 'five', 'FIVE\nSIX', 4),
    );
    expect(plan.files).toHaveLength(4);
    const records = perFile(plan.files);
    expect(records.map((r) => [r.path, r.op, r.additions, r.deletions])).toEqual([
      ['a.txt', 'update', 3, 3],
      ['b.txt', 'update', 1, 1],
    ]);
    expect(records[0]!.chunks.map((c) => [c.chunk, c.line])).toEqual([
      [0, 2],
      [1, 4],
      [2, 4],
    ]);
    // The plan's own records are left as they were.
    expect(plan.files[0]!.chunks).toHaveLength(1);
  });

  it("joins diffs that git apply applies, in order, to the file's final bytes", () => {
    const plan = planned(
      replace('a.txt', 'two', 'TWO', 1),
      replace('a.txt', 'four\nfive', 'FOUR', 2),
      replace('a.txt', 'one\n', '', 3),
    );
    const [record] = perFile(plan.files);
    const repo = mkdtempSync(join(tmpdir(), 'ps-per-file-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: repo });
      writeFileSync(join(repo, 'a.txt'), START);
      writeFileSync(join(repo, 'joined.diff'), record!.diff);
      execFileSync('git', ['apply', 'joined.diff'], { cwd: repo });
      expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe(text(plan.writes[0]!.after!.bytes));
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('keeps a move, and updates on either side of it, apart', () => {
    const plan = planned(
      update('a.txt', [chunk('-one\n+ONE')]),
      update('a.txt', [chunk('-two\n+TWO')], 'c.txt'),
      update('c.txt', [chunk('-three\n+THREE')]),
      update('c.txt', [chunk('-four\n+FOUR')]),
    );
    expect(perFile(plan.files).map((r) => [r.path, r.op, r.movePath, r.additions])).toEqual([
      ['a.txt', 'update', undefined, 1],
      ['a.txt', 'move', 'c.txt', 1],
      ['c.txt', 'update', undefined, 2],
    ]);
  });
});

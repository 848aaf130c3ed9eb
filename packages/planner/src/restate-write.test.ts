/** `restateWrite`: other final bytes for a file, its records joined into one whose diff goes from what was read. */
import type { StrReplaceCommand } from '@patchsmith/core';
import { compileStrReplace, parsePatch } from '@patchsmith/grammar';
import { describe, expect, it } from 'vitest';
import { planEdits } from './plan-edits.js';
import { restateWrite } from './restate-write.js';
import type { FileState, Plan } from './types.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const file = (text: string): FileState => ({ kind: 'file', bytes: encoder.encode(text), mode: 0o100644 });

function planned(script: ReturnType<typeof parsePatch>, files: Record<string, FileState>): Plan {
  if (!script.ok) throw new Error('bad script');
  const result = planEdits(script.value, new Map(Object.entries(files)), { root: '/r' });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.plan;
}

describe('restateWrite', () => {
  it('joins several edits of one file into one record, its diff from the file read to the new bytes', () => {
    const edits: StrReplaceCommand[] = [
      { command: 'str_replace', path: 'a.txt', old_str: 'one', new_str: 'ONE' },
      { command: 'str_replace', path: 'a.txt', old_str: 'three', new_str: 'THREE' },
    ];
    const plan = planned(compileStrReplace(edits), { 'a.txt': file('one\ntwo\nthree\n') });
    expect(plan.files).toHaveLength(2);
    const restated = restateWrite(plan, 'a.txt', encoder.encode('ONE;\ntwo\nTHREE;\n'));
    expect(restated.files).toHaveLength(1);
    expect(restated.files[0]).toMatchObject({ path: 'a.txt', op: 'update', additions: 2, deletions: 2 });
    expect(restated.files[0]!.chunks.map((c) => c.chunk)).toEqual([0, 1]);
    expect(restated.files[0]!.diff).toContain('-one\n+ONE;\n');
    expect(decoder.decode(restated.writes[0]!.after!.bytes)).toBe('ONE;\ntwo\nTHREE;\n');
    // The plan given is left as it was.
    expect(plan.files).toHaveLength(2);
  });

  it('a moved file keeps its move, the diff going from the source read', () => {
    const patch =
      '*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-one\n+two\n*** End Patch';
    const plan = planned(parsePatch(patch), { 'a.txt': file('one\n'), 'b.txt': { kind: 'missing' } });
    const restated = restateWrite(plan, 'b.txt', encoder.encode('two!\n'));
    expect(restated.files).toMatchObject([
      { path: 'a.txt', op: 'move', movePath: 'b.txt', additions: 1, deletions: 1 },
    ]);
    expect(restated.files[0]!.diff).toContain('-one\n+two!\n');
    expect(restated.writes.find((w) => w.path === 'a.txt')!.after).toBeNull();
  });

  it('an added file stays an add', () => {
    const patch = '*** Begin Patch\n*** Add File: n.txt\n+x\n*** End Patch';
    const plan = planned(parsePatch(patch), { 'n.txt': { kind: 'missing' } });
    const restated = restateWrite(plan, 'n.txt', encoder.encode('x;\n'));
    expect(restated.files).toMatchObject([{ path: 'n.txt', op: 'add', additions: 1, deletions: 0 }]);
  });

  it('a path the plan does not write is a caller bug, thrown', () => {
    const plan = planned(parsePatch('*** Begin Patch\n*** Delete File: a.txt\n*** End Patch'), {
      'a.txt': file('x\n'),
    });
    expect(() => restateWrite(plan, 'a.txt', encoder.encode('y'))).toThrow(/does not write a file at a.txt/);
  });
});

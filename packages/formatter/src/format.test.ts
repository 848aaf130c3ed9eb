import type { PlannedFile } from '@patchsmith/planner';
import { describe, expect, it } from 'vitest';
import { formatApplyPatch } from './format-apply-patch.js';
import { formatHuman } from './format-human.js';
import { formatJson } from './format-json.js';
import { formatForModel } from './format-model.js';
import type { EditReport } from './report.js';

const file = (over: Partial<PlannedFile>): PlannedFile => ({
  path: 'a.txt',
  op: 'update',
  additions: 0,
  deletions: 0,
  diff: '',
  chunks: [],
  ...over,
});

const applied: EditReport = {
  ok: true,
  dryRun: false,
  files: [
    file({
      path: 'new.txt',
      op: 'add',
      additions: 2,
      diff: '--- /dev/null\n+++ new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n',
    }),
    file({
      path: 'm.txt',
      op: 'update',
      additions: 1,
      deletions: 3,
      chunks: [
        { chunk: 0, line: 4, pass: 'exact' },
        { chunk: 1, line: 20, pass: 'indentation', indent: { prefix: '  ', side: 'file' } },
      ],
    }),
    file({ path: 'gone.txt', op: 'delete', deletions: 4 }),
    file({ path: 'old/x.txt', op: 'move', movePath: 'new/x.txt', additions: 1, deletions: 1 }),
  ],
  diagnostics: [
    {
      path: 'src/a.ts',
      status: 'ok',
      diagnostics: [
        {
          range: { start: { line: 2, character: 4 }, end: { line: 2, character: 9 } },
          severity: 1,
          code: 2322,
          source: 'typescript',
          message: "Type 'string' is not assignable to type 'number'.",
        },
      ],
      omitted: 0,
    },
    { path: 'b.py', status: 'timeout', diagnostics: [], omitted: 0, note: 'pyright did not answer in 10 s' },
  ],
  snapshot: '20261202-abcd',
  errors: [],
};

const rejected: EditReport = {
  ok: false,
  dryRun: false,
  files: [],
  diagnostics: [],
  snapshot: null,
  errors: [
    {
      code: 'NO_MATCH',
      message: 'could not find the expected lines',
      path: 'src/a.ts',
      chunk: 1,
      line: 12,
      nearest: { startLine: 40, endLine: 42, similarity: 0.83, diff: ' keep\n-expected\n+actual\n' },
    },
    { code: 'AMBIGUOUS', message: 'two places match', path: 'b.ts', chunk: 0, candidates: [3, 9] },
  ],
};

describe('formatHuman', () => {
  it('prints SPEC §5 summary lines after "Patch applied."', () => {
    const lines = formatHuman(applied).split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'Patch applied.',
      '[A] new.txt (+2)',
      '[M] m.txt (+1 -3)',
      '    chunk 2 at line 20: matched by the indentation pass, indentation +2 spaces',
      '[D] gone.txt',
      '[R] old/x.txt → new/x.txt (+1 -1)',
    ]);
  });

  it('shows new errors with 1-based positions and never lets a timeout read as clean', () => {
    const text = formatHuman(applied);
    expect(text).toContain("src/a.ts:3:5 Type 'string' is not assignable to type 'number'.");
    expect(text).toContain('b.py: diagnostics timeout (pyright did not answer in 10 s)');
  });

  it('prints one block per failing chunk with the nearest region', () => {
    const text = formatHuman(rejected);
    expect(text).toContain('NO_MATCH (src/a.ts, chunk 2, patch line 12): could not find the expected lines');
    expect(text).toContain('nearest region: lines 40-42 (similarity 83%)');
    expect(text).toContain('    -expected');
    expect(text).toContain('AMBIGUOUS (b.ts, chunk 1): two places match');
    expect(text).toContain('candidates at lines 3, 9');
  });

  it('colours only when asked', () => {
    expect(formatHuman(applied, { diffs: true })).not.toContain('\u001b[');
    expect(formatHuman(applied, { color: true, diffs: true })).toContain('\u001b[');
  });
});

describe('formatJson', () => {
  it('has the SPEC §5 keys and omits movePath when absent', () => {
    const doc = JSON.parse(formatJson(applied));
    expect(Object.keys(doc)).toEqual(['ok', 'dryRun', 'files', 'diagnostics', 'snapshot', 'errors']);
    expect(doc.files[0]).not.toHaveProperty('movePath');
    expect(doc.files[3].movePath).toBe('new/x.txt');
    expect(JSON.parse(formatJson(rejected)).errors[0].nearest.startLine).toBe(40);
  });
});

describe('formatForModel', () => {
  it('carries a <diagnostics> block with ERROR [line:col] lines', () => {
    const text = formatForModel(applied);
    expect(text).toContain(
      `<diagnostics file="src/a.ts">\nERROR [3:5] Type 'string' is not assignable to type 'number'.\n</diagnostics>`,
    );
    expect(text).toContain('<diagnostics file="b.py" status="timeout">');
  });

  it('tells the model which chunks needed tolerance', () => {
    expect(formatForModel(applied)).toContain('  note: chunk 2 at line 20: matched by the indentation pass');
    expect(formatForModel(applied)).not.toContain('chunk 1 at line 4');
  });

  it('lists every failing chunk', () => {
    const text = formatForModel(rejected);
    expect(text).toContain('2 problem(s)');
    expect(text).toContain('nearest region: lines 40-42');
    expect(text).toContain('candidates at lines 3, 9');
  });
});

describe('formatApplyPatch', () => {
  it('prints the reference summary; a move reports its destination', () => {
    expect(formatApplyPatch(applied).stdout).toBe(
      'Success. Updated the following files:\nA new.txt\nM m.txt\nD gone.txt\nM new/x.txt\n',
    );
  });
  it('puts errors on stderr', () => {
    const out = formatApplyPatch(rejected);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('NO_MATCH');
  });
});

describe('a partial apply and a merged file', () => {
  const partial: EditReport = {
    ok: false,
    partial: true,
    dryRun: false,
    files: [
      file({
        path: 'm.txt',
        additions: 1,
        deletions: 1,
        merged: {
          moved: [
            { read: 5, now: 7, lines: 1 },
            { read: 9, now: 9, lines: 2 },
          ],
        },
      }),
    ],
    diagnostics: [],
    snapshot: null,
    errors: [{ code: 'NO_MATCH', message: 'chunk 1 does not match', path: 'x.txt' }],
  };

  it('says partly applied (never just applied), lists what was written and why the rest was not', () => {
    for (const text of [formatHuman(partial), formatForModel(partial)]) {
      expect(text).toMatch(
        /^Patch partly applied: 1 file\(s\) written; 1 error\(s\), and the files they name were left untouched\.\n/,
      );
      expect(text).toContain('[M] m.txt (+1 -1)');
      expect(text).toContain('chunk 1 does not match');
      expect(text).not.toContain('Patch applied.');
    }
    expect(formatHuman({ ...partial, dryRun: true })).toContain(
      'Patch partly applies: 1 file(s) would be written',
    );
  });

  it('JSON says partial, and carries where a merged file’s changes landed', () => {
    const doc = JSON.parse(formatJson(partial));
    expect(doc).toMatchObject({ ok: false, partial: true });
    expect(doc.files[0].merged).toEqual({
      moved: [
        { read: 5, now: 7, lines: 1 },
        { read: 9, now: 9, lines: 2 },
      ],
    });
    expect(JSON.parse(formatJson(applied))).not.toHaveProperty('partial');
  });

  it('tells the model the file changed under it and where its change moved', () => {
    expect(formatForModel(partial)).toContain(
      '  note: the file changed since it was read; the edit was merged into it as it is now (line 5 is now line 7); re-read it before the next edit',
    );
  });
});

describe('a formatted file', () => {
  const report = (formatted: NonNullable<PlannedFile['formatted']>): EditReport => ({
    ok: true,
    dryRun: false,
    files: [file({ path: 'a.ts', additions: 1, deletions: 1, formatted })],
    diagnostics: [],
    snapshot: null,
    errors: [],
  });

  it('says which formatter ran, or why the file is as the edit made it, to people and models', () => {
    const ran = report({ by: 'prettier', ok: true });
    for (const text of [formatHuman(ran), formatForModel(ran)]) {
      expect(text).toContain('formatted by prettier before writing (the diff includes its changes)');
    }
    const failed = report({
      by: 'ruff',
      ok: false,
      note: 'ruff exited with 2: bad; written as the edit made it',
    });
    expect(formatForModel(failed)).toContain(
      '  note: not formatted: ruff exited with 2: bad; written as the edit made it',
    );
    expect(JSON.parse(formatJson(failed)).files[0].formatted).toEqual(failed.files[0]!.formatted);
  });
});

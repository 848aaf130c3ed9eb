/** Huge inputs through the whole pipeline (`runEdit`, then every formatter): answers, never a stack overflow. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatApplyPatch, formatForModel, formatHuman, formatJson } from '@patchsmith/formatter';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-scale-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('150,000 failing chunks: rejected with an error for each, and every output is produced', async () => {
  const before = `${Array.from({ length: 1_000 }, (_, i) => `line ${i}`).join('\n')}\n`;
  await writeFile(join(root, 'a.txt'), before);
  const body = ['*** Begin Patch', '*** Update File: a.txt'];
  for (let c = 0; c < 150_000; c++) body.push('@@', `-missing ${c}`, `+new ${c}`);
  body.push('*** End Patch');

  const report = await runEdit({ kind: 'patch', text: body.join('\n') }, { root, snapshot: false });
  expect(report.ok).toBe(false);
  expect(report.errors).toHaveLength(150_000);
  expect(report.errors.every((e) => e.code === 'NO_MATCH' && e.path === 'a.txt')).toBe(true);
  // The first misses name their nearest region; past the budget a miss says it was not searched.
  expect(report.errors[0]?.nearest?.startLine).toBe(1);
  expect(report.errors.at(-1)?.nearest).toBeUndefined();
  expect(report.errors.at(-1)?.message).toContain('missing 149999\n(nearest region not searched');
  expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe(before);

  const json = JSON.parse(formatJson(report)) as { ok: boolean; errors: unknown[] };
  expect(json.ok).toBe(false);
  expect(json.errors).toHaveLength(150_000);
  for (const text of [formatHuman(report), formatForModel(report), formatApplyPatch(report).stderr]) {
    expect(text).toContain('NO_MATCH (a.txt, chunk 1, patch line 3)');
    expect(text).toContain('… and 149900 more error(s), not shown');
    expect(text).not.toContain('chunk 101,');
  }
});

it('a 200,000-line file of `}` with a line hint: the hinted place, by pass 3', async () => {
  await writeFile(join(root, 'a.txt'), '}\n'.repeat(200_000));
  const diff = [
    '--- a/a.txt',
    '+++ b/a.txt',
    '@@ -150000,3 +150000,3 @@',
    '   }',
    '-  }',
    '+  } // x',
    '   }',
    '',
  ];
  const report = await runEdit({ kind: 'patch', text: diff.join('\n') }, { root, snapshot: false });
  expect(report.errors).toStrictEqual([]);
  expect(report.files[0]?.chunks).toStrictEqual([
    { chunk: 0, line: 150_000, pass: 'indentation', indent: { prefix: '  ', side: 'patch' } },
  ]);
  const lines = (await readFile(join(root, 'a.txt'), 'utf8')).split('\n');
  expect(lines).toHaveLength(200_001);
  expect(lines[150_000]).toBe('} // x');
  expect(lines.filter((l) => l !== '}')).toStrictEqual(['} // x', '']);
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatForModel } from '@patchsmith/formatter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-edit-errors-'));
  await writeFile(join(root, 'a.txt'), 'a\nb\nc\nd\ne\nx = x\nx\ny\n');
  await writeFile(join(root, 'n.txt'), 'alpha\nbeta\ngamma\ndelta\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const replace = (path: string, old_str: string) =>
  runEdit({ kind: 'edits', edits: [{ command: 'str_replace', path, old_str, new_str: 'z' }] }, { root });

describe('what a model reads of a failed str_replace', () => {
  it('AMBIGUOUS names each candidate line once, counting matches on one line, and no patch line', async () => {
    const report = await replace('a.txt', 'x');
    const text = formatForModel(report);
    expect(report.errors[0]).toMatchObject({ code: 'AMBIGUOUS', candidates: [6, 6, 7] });
    expect(text).toContain('AMBIGUOUS (a.txt, chunk 1): the text to replace occurs 3 times;');
    expect(text).toContain('candidates at lines 6 (2 times), 7\n');
    expect(text).not.toContain('6, 6');
    expect(text).not.toContain('patch line');
  });

  it('NO_MATCH shows the nearest region once', async () => {
    const text = formatForModel(await replace('n.txt', 'betta\ngama'));
    expect(text.match(/nearest/g)).toEqual(['nearest']);
    expect(text).toContain('nearest region: lines 2-3 (similarity 86%)\n  -betta\n  +beta\n');
    expect(text).not.toContain('patch line');
  });

  it('a patch keeps its patch line', async () => {
    const report = await runEdit(
      { kind: 'patch', text: '*** Begin Patch\n*** Update File: n.txt\n@@\n-betta\n+z\n*** End Patch' },
      { root },
    );
    expect(formatForModel(report)).toContain('patch line');
  });
});

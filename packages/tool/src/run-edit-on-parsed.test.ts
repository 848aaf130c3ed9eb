import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EditScript } from '@patchsmith/core';
import { parseEdits } from '@patchsmith/grammar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-on-parsed-'));
  await writeFile(join(root, 'a.txt'), 'one\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const text =
  '*** Begin Patch\n*** Update File: ./a.txt\n@@\n-one\n+two\n*** Add File: sub//b.txt\n+new\n*** End Patch';

describe('runEdit onParsed', () => {
  it('gives the script as parsed, its paths as written, before the plan is asked about', async () => {
    const scripts: EditScript[] = [];
    const events: string[] = [];
    const report = await runEdit(
      { kind: 'patch', text },
      {
        root,
        snapshot: false,
        onParsed: (script) => {
          scripts.push(script);
          events.push('parsed');
        },
        onProgress: ({ stage }) => events.push(stage),
      },
    );
    expect(report.ok).toBe(true);
    expect(events).toEqual(['planning', 'parsed', 'asking', 'writing']);
    const expected = parseEdits(text, 'auto');
    expect(expected.ok).toBe(true);
    expect(scripts).toEqual([expected.ok && expected.value]);
    expect(scripts[0]!.operations.map((op) => op.path)).toEqual(['./a.txt', 'sub//b.txt']);
    expect(report.files.map((f) => f.path)).toEqual(['a.txt', 'sub/b.txt']);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('two\n');
  });

  it('is not called when the input does not parse', async () => {
    let called = false;
    const report = await runEdit(
      { kind: 'patch', text: '*** Begin Patch\n*** Frobnicate File: a.txt\n*** End Patch' },
      { root, onParsed: () => (called = true) },
    );
    expect(report.ok).toBe(false);
    expect(report.errors[0]!.code).toBe('PARSE_ERROR');
    expect(called).toBe(false);
  });
});

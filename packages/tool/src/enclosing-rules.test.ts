/**
 * Working in a subfolder of a repository never lifts the repository's rules: `runEdit` and
 * `viewFile` rooted at `sub/` still obey the top's `.patchsmith.json`, and nothing is written.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';

let top: string;
beforeEach(async () => {
  top = await mkdtemp(join(tmpdir(), 'patchsmith-enclosing-'));
  execFileSync('git', ['init', '-q', top]);
  await mkdir(join(top, 'sub'));
  await writeFile(
    join(top, '.patchsmith.json'),
    JSON.stringify({ permissions: [{ match: '*.pem', action: 'deny' }] }),
  );
  await writeFile(
    join(top, 'sub', '.patchsmith.json'),
    JSON.stringify({ permissions: [{ match: '**', action: 'allow' }] }),
  );
});
afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

describe("the repository's rules from a subfolder", () => {
  it('deny what the top denies, whatever the subfolder config says', async () => {
    const text = '*** Begin Patch\n*** Add File: keys/k.pem\n+secret\n*** Add File: a.txt\n+a\n*** End Patch';
    const report = await runEdit({ kind: 'patch', text }, { root: join(top, 'sub'), snapshot: false });
    expect(report.ok).toBe(false);
    expect(report.errors[0]).toMatchObject({ code: 'DENIED', path: 'keys/k.pem' });
    expect(report.errors[0]!.message).toContain('../.patchsmith.json');
    expect((await readdir(join(top, 'sub'))).sort()).toEqual(['.patchsmith.json']);
  });

  it('allow what no rule above denies', async () => {
    const text = '*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch';
    const report = await runEdit({ kind: 'patch', text }, { root: join(top, 'sub'), snapshot: false });
    expect(report.ok).toBe(true);
  });
});

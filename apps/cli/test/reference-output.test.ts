import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { APPLY_PATCH_BIN } from './bins.js';

// `apply_patch` is a drop-in: for the same patch in the same folder it prints what the reference
// binary prints, byte for byte, on stdout and stderr, with the same exit status. The reference is
// installed on demand into .cache/ (as the bench does); without it these tests say why and skip.

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
let reference: string | null = null;
let skipReason = '';

beforeAll(async () => {
  const module = await import(pathToFileURL(join(repoRoot, 'tooling/bench/src/reference.mjs')).href);
  const found = module.referenceApplyPatch(join(repoRoot, '.cache')) as {
    path: string | null;
    reason: string | null;
  };
  reference = found.path;
  skipReason = found.reason ?? '';
}, 600_000);

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
  tree: Record<string, string | null>;
}

const FILES = { 'm.txt': 'x\n', 'd.txt': 'd\n', 'sub/s.txt': 's\n' };

/** Runs a bin on the patch in a fresh copy of FILES at `dir`, and what it left. */
async function run(command: string[], dir: string, patch: string): Promise<Outcome> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'sub'), { recursive: true });
  for (const [name, content] of Object.entries(FILES)) await writeFile(join(dir, name), content);
  const r = spawnSync(command[0]!, [...command.slice(1), patch], { cwd: dir, encoding: 'utf8' });
  const tree: Record<string, string | null> = {};
  for (const name of [...Object.keys(FILES), 'n.txt', 'q/r.txt']) {
    tree[name] = await readFile(join(dir, name), 'utf8').catch(() => null);
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, tree };
}

/** Both bins on the same patch in the same folder path. */
async function both(patch: string): Promise<{ ours: Outcome; theirs: Outcome }> {
  const dir = join(await realpath(await mkdtemp(join(tmpdir(), 'ps-reference-'))), 'w');
  const theirs = await run([reference!], dir, patch);
  const ours = await run([process.execPath, APPLY_PATCH_BIN], dir, patch);
  await rm(join(dir, '..'), { recursive: true, force: true });
  return { ours, theirs };
}

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

const SAME: Record<string, string> = {
  'success: paths as written, grouped A, M, D in patch order': patch(
    '*** Delete File: d.txt',
    '*** Update File: ./m.txt',
    '@@',
    '-x',
    '+y',
    '*** Add File: sub/../n.txt',
    '+n',
    '*** Update File: sub/s.txt',
    '*** Move to: q/r.txt',
    '@@',
    '-s',
    '+t',
  ),
  'the first line is not *** Begin Patch': 'hello\n*** End Patch',
  'the last line is not *** End Patch': '*** Begin Patch\n*** Update File: m.txt\n@@\n-x\n+y',
  'an unknown hunk header': patch('*** Frobnicate File: m.txt'),
  'no operation at all': patch(),
  'an update of a missing file': patch('*** Update File: nope.txt', '@@', '-x', '+y'),
  'a delete of a missing file': patch('*** Delete File: ./nope.txt'),
  'an update of a missing file named with . and ..': patch(
    '*** Update File: ./a//b/../nope.txt',
    '@@',
    '-x',
    '+y',
  ),
  'expected lines that are not there': patch('*** Update File: m.txt', '@@', '-zzz', ' qqq', '+y'),
  'an anchor that is not there': patch('*** Update File: m.txt', '@@ nothere', '-x', '+y'),
};

describe('apply_patch prints what the reference prints', () => {
  it.each(Object.entries(SAME))(
    '%s',
    async (_name, text) => {
      if (reference === null) {
        console.warn(`skipped: the reference apply_patch cannot be installed (${skipReason})`);
        return;
      }
      const { ours, theirs } = await both(text);
      expect(ours).toEqual(theirs);
    },
    60_000,
  );

  it('a name with ESC cannot drive the terminal (the reference prints it raw); a newline cannot be in a header', async () => {
    if (reference === null) return;
    const name = 'evil\u001b[2J.txt';
    const { ours, theirs } = await both(patch(`*** Add File: ${name}`, '+x'));
    expect(theirs.stdout).toBe(`Success. Updated the following files:\nA ${name}\n`);
    expect(ours.status).toBe(theirs.status);
    expect(ours.stdout).toBe('Success. Updated the following files:\nA evil\\x1b[2J.txt\n');
  }, 60_000);
});

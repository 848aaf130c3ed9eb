import { execFileSync } from 'node:child_process';
import * as nodeFs from 'node:fs/promises';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { StateDirFs } from './git-dir.js';
import { locateStateDir } from './state-dir.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'patchsmith-state-dir-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const gitInit = (dir: string) => execFileSync('git', ['init', '-q', dir]);

it('takes the nearest .git above the root, however many lie further up', async () => {
  const inner = join(base, 'outer', 'inner');
  const root = join(inner, 'src', 'deep');
  await mkdir(root, { recursive: true });
  gitInit(join(base, 'outer'));
  gitInit(inner);
  expect(await locateStateDir(root)).toEqual({
    stateDir: join(inner, '.git', 'patchsmith'),
    gitDir: join(inner, '.git'),
    workTree: inner,
    brokenGitFile: null,
  });
});

it('stops at a nearer .git file that leads nowhere, even below a repository', async () => {
  const root = join(base, 'repo', 'sub');
  await mkdir(root, { recursive: true });
  gitInit(join(base, 'repo'));
  await writeFile(join(root, '.git'), 'gitdir: ../../nowhere\n');
  const found = await locateStateDir(root);
  expect(found.stateDir).toBe(join(root, '.patchsmith'));
  expect(found.gitDir).toBeNull();
  expect(found.brokenGitFile).toContain('nowhere');
});

it('asks about every folder up to / at once, before any answer is back', async () => {
  const root = join(base, 'a', 'b');
  await mkdir(root, { recursive: true });
  const asked: string[] = [];
  const answers: (() => void)[] = [];
  // Holds every stat until the test answers them all.
  const held: StateDirFs = {
    stat: (path) => {
      asked.push(path);
      return new Promise((done, fail) => answers.push(() => nodeFs.stat(path).then(done, fail)));
    },
    readFile: (path, encoding) => nodeFs.readFile(path, encoding),
  };
  const located = locateStateDir(root, held);
  await new Promise((done) => setImmediate(done));
  const levels: string[] = [];
  for (let dir = root; ; dir = dirname(dir)) {
    levels.push(join(dir, '.git'));
    if (dirname(dir) === dir) break;
  }
  expect(asked).toEqual(levels);
  for (const answer of answers) answer();
  const found = await located;
  // The temp folder may sit inside a repository; whatever it is, it is what the plain walk finds.
  expect(found).toEqual(await locateStateDir(root));
});

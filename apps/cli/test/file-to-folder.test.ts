/**
 * A file replaced by a folder and back within one patch, through the built `patchsmith apply`:
 * `git diff` of each direction replays to git's own index (`git ls-files -s`), `undo` restores
 * the before state, and a patch that leaves a file below a file is refused with nothing written.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';
import { readTree } from './tree.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-file-to-folder-'));
  git('init', '-q');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ps = (args: string[], input?: string) => runBin(PATCHSMITH_BIN, args, { cwd: dir, input });
function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}
/** The work tree without `.git/`. */
const work = async () => new Map([...(await readTree(dir))].filter(([path]) => !path.startsWith('.git/')));

it('file -> folder and folder -> file: git diff replays to git’s index, undo restores each', async () => {
  await writeFile(join(dir, 'src'), 'a file named src\n');
  git('add', '-A');
  git('commit', '-qm', 'file');
  const steps = [
    async () => {
      await rm(join(dir, 'src'));
      await mkdir(join(dir, 'src/lib'), { recursive: true });
      await writeFile(join(dir, 'src/index.ts'), 'export {};\n');
      await writeFile(join(dir, 'src/lib/a.ts'), 'export const a = 1;\n');
    },
    async () => {
      await rm(join(dir, 'src'), { recursive: true });
      await writeFile(join(dir, 'src'), 'a file again\n');
    },
  ];
  for (const change of steps) {
    await change();
    git('add', '-A');
    const diff = git('diff', '--cached');
    const wanted = git('ls-files', '-s');
    git('commit', '-qm', 'step');
    git('reset', '-q', '--hard', 'HEAD~1');
    const before = await work();
    const r = ps(['apply'], diff);
    expect(r.stdout + r.stderr).toMatch(/^Patch applied\./);
    expect(r.status).toBe(0);
    git('add', '-A');
    expect(git('ls-files', '-s')).toBe(wanted);
    expect(ps(['undo']).status).toBe(0);
    expect(await work()).toStrictEqual(before);
    git('reset', '-q', '--hard', 'HEAD@{1}');
  }
  expect(await readFile(join(dir, 'src'), 'utf8')).toBe('a file again\n');
});

it('a file left below a file is NOT_A_FILE with the line, in JSON, and nothing is written', async () => {
  await writeFile(join(dir, 'a'), 'a file\n');
  const before = await work();
  const r = ps(['apply', '--json'], '*** Begin Patch\n*** Add File: a/b\n+b\n*** End Patch\n');
  expect(r.status).toBe(1);
  expect(JSON.parse(r.stdout).errors).toStrictEqual([
    { code: 'NOT_A_FILE', message: 'cannot write a/b: a is a file, not a folder', path: 'a/b', line: 2 },
  ]);
  expect(await work()).toStrictEqual(before);
});

import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';
import { readTree } from './tree.js';

// SPEC §4.5: a patchsmith killed at any moment of an apply leaves a tree that the next run turns
// into exactly the before state or exactly the after state.

const FILES = 200;
const KILLS = 50;

function fileText(i: number, version: string): string {
  return (
    Array.from({ length: 40 }, (_, l) => `file ${i} line ${l} ${l === 20 ? version : ''}`.trimEnd()).join(
      '\n',
    ) + '\n'
  );
}

/** 200 operations: updates, adds, deletes and moves into new folders. */
function makePatch(): string {
  const out = ['*** Begin Patch'];
  for (let i = 0; i < FILES; i++) {
    const kind = i % 10;
    if (kind < 5) {
      out.push(
        `*** Update File: src/f${i}.txt`,
        '@@',
        ` file ${i} line 19`,
        `-file ${i} line 20 v1`,
        `+file ${i} line 20 v2`,
      );
    } else if (kind < 7) {
      out.push(
        `*** Add File: added/a${i}.txt`,
        ...fileText(i, 'new')
          .trimEnd()
          .split('\n')
          .map((l) => `+${l}`),
      );
    } else if (kind < 9) {
      out.push(`*** Delete File: src/f${i}.txt`);
    } else {
      out.push(
        `*** Update File: src/f${i}.txt`,
        `*** Move to: moved/deep/f${i}.txt`,
        '@@',
        `-file ${i} line 20 v1`,
        `+file ${i} line 20 moved`,
      );
    }
  }
  out.push('*** End Patch', '');
  return out.join('\n');
}

/** The tree as a user sees it: private state (.patchsmith) is not part of the comparison. */
async function visibleTree(dir: string) {
  const tree = await readTree(dir);
  for (const key of [...tree.keys()]) if (key.startsWith('.patchsmith/')) tree.delete(key);
  return tree;
}

function runKilledAfter(cwd: string, patchFile: string, delayMs: number): Promise<void> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [PATCHSMITH_BIN, 'apply', patchFile, '--no-snapshot'], {
      cwd,
      stdio: 'ignore',
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    child.on('exit', () => {
      clearTimeout(timer);
      done();
    });
  });
}

let base: string;
let template: string;
let patchFile: string;
let before: Map<string, string>;
let after: Map<string, string>;
let fullRunMs = 0;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'ps-kill-'));
  template = join(base, 'template');
  await mkdir(join(template, 'src'), { recursive: true });
  for (let i = 0; i < FILES; i++) {
    if (i % 10 < 5 || i % 10 >= 7) await writeFile(join(template, 'src', `f${i}.txt`), fileText(i, 'v1'));
  }
  patchFile = join(base, 'big.patch');
  await writeFile(patchFile, makePatch());
  before = await visibleTree(template);

  const ref = join(base, 'reference');
  await cp(template, ref, { recursive: true });
  const started = Date.now();
  const r = runBin(PATCHSMITH_BIN, ['apply', patchFile, '--no-snapshot'], { cwd: ref });
  fullRunMs = Date.now() - started;
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  after = await visibleTree(ref);
  expect(after).not.toEqual(before);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('a 200-file apply killed with SIGKILL', () => {
  it(`ends, after the next run, exactly before or exactly after (${KILLS} random moments)`, async () => {
    const outcomes = { before: 0, after: 0, recovered: 0 };
    for (let k = 0; k < KILLS; k++) {
      const work = join(base, `run-${k}`);
      await cp(template, work, { recursive: true });
      // Most moments fall late in the run, where the transaction is writing.
      const delay = Math.floor(fullRunMs * (0.3 + Math.random() * 0.9));
      await runKilledAfter(work, patchFile, delay);
      const recover = runBin(PATCHSMITH_BIN, ['recover'], { cwd: work });
      expect(recover.status).toBe(0);
      if (recover.stdout.startsWith('Recovered')) outcomes.recovered++;
      const tree = await visibleTree(work);
      const isBefore = JSON.stringify([...tree]) === JSON.stringify([...before]);
      const isAfter = !isBefore && JSON.stringify([...tree]) === JSON.stringify([...after]);
      if (!isBefore && !isAfter) expect(tree).toEqual(before); // shows the difference
      outcomes[isBefore ? 'before' : 'after']++;
      await rm(work, { recursive: true, force: true });
    }
    console.log(
      `kill test: ${KILLS} kills over a ${fullRunMs} ms run: ${outcomes.before} before, ${outcomes.after} after, ` +
        `${outcomes.recovered} interrupted transactions recovered`,
    );
    expect(outcomes.before + outcomes.after).toBe(KILLS);
  }, 300_000);
});

describe('an apply killed between creating its lock file and writing it', () => {
  it('leaves an empty lock that recover waits out instead of calling the root busy', async () => {
    const work = join(base, 'half-made-lock');
    await cp(template, work, { recursive: true });
    await mkdir(join(work, '.patchsmith'), { recursive: true });
    await writeFile(join(work, '.patchsmith', 'lock'), '');
    const recover = runBin(PATCHSMITH_BIN, ['recover'], { cwd: work });
    expect(recover.stderr).toBe('');
    expect(recover.status).toBe(0);
    expect(await visibleTree(work)).toEqual(before);
  });
});

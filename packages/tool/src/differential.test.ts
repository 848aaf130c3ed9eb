/**
 * Differential tests against `git apply` and GNU `patch`: diffs made with git, whose line numbers
 * then drift (lines inserted at the top of each target file after the diff was made). Whatever
 * either tool applies, patchsmith applies too, to the same bytes and modes.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';
import { random } from './test-support/generate-history.js';
import { git } from './test-support/git-trees.js';

const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

interface Scenario {
  files: Map<string, string>;
  patch: string;
  /** The files as they are when the patch is applied: the diff's old side with lines inserted at the top. */
  drifted: Map<string, string>;
}

const WORDS = ['get', 'set', 'load', 'save', 'parse', 'print', 'open', 'close'];

/** Files, an edited copy, the git diff between them, and the old files drifted. */
async function makeScenario(dir: string, seed: number): Promise<Scenario> {
  const rand = random(seed);
  const int = (n: number) => Math.floor(rand() * n);
  let counter = 0;
  const line = () =>
    rand() < 0.1 ? '' : rand() < 0.1 ? '}' : `  ${WORDS[int(WORDS.length)]}_${seed}_${counter++}(${int(9)});`;
  const files = new Map<string, string>();
  const edited = new Map<string, string>();
  for (let f = 0; f < 1 + int(3); f++) {
    const lines = Array.from({ length: 20 + int(60) }, line);
    const path = `dir${f}/file ${f}.txt`;
    const noFinalNewline = rand() < 0.2;
    files.set(path, lines.join('\n') + (noFinalNewline ? '' : '\n'));
    for (let k = 1 + int(4); k > 0; k--) {
      const at = int(lines.length);
      const r = rand();
      if (r < 0.4) lines.splice(at, 1 + int(3), ...Array.from({ length: 1 + int(3) }, line));
      else if (r < 0.7) lines.splice(at, 0, ...Array.from({ length: 1 + int(3) }, line));
      else lines.splice(at, 1 + int(3));
    }
    edited.set(path, lines.join('\n') + (noFinalNewline && rand() < 0.7 ? '' : '\n'));
  }
  await writeTree(dir, files);
  git(dir, ['init', '-q']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'before']);
  await writeTree(dir, edited);
  const patch = git(dir, ['diff', '--no-color']).toString('utf8');
  const drifted = new Map<string, string>();
  for (const [path, text] of files) {
    const extra = Array.from({ length: 1 + int(12) }, (_, i) => `drift ${seed} ${i}`).join('\n');
    drifted.set(path, `${extra}\n${text}`);
  }
  return { files, patch, drifted };
}

async function writeTree(dir: string, files: ReadonlyMap<string, string>): Promise<void> {
  for (const [path, text] of files) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

async function readTree(dir: string, paths: Iterable<string>): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const path of paths) out[path] = await readFile(join(dir, path), 'utf8').catch(() => null);
  return out;
}

/** Runs a tool in a fresh copy of the drifted files: the resulting files, or null when it refused. */
async function withTool(
  base: string,
  name: string,
  drifted: ReadonlyMap<string, string>,
  run: (dir: string) => Promise<boolean> | boolean,
): Promise<Record<string, string | null> | null> {
  const dir = join(base, name);
  await mkdir(dir, { recursive: true });
  await writeTree(dir, drifted);
  return (await run(dir)) ? readTree(dir, drifted.keys()) : null;
}

describe('differential: patchsmith vs git apply and GNU patch on drifted line numbers', () => {
  it('applies everything git apply or patch applies, to the same result', async () => {
    const counts = { scenarios: 0, gitApplied: 0, patchApplied: 0, patchsmithApplied: 0 };
    const disagreements: string[] = [];
    for (let seed = 1; seed <= 60; seed++) {
      const base = await mkdtemp(join(tmpdir(), 'patchsmith-diff-'));
      temps.push(base);
      const scenario = await makeScenario(join(base, 'origin'), seed);
      counts.scenarios++;
      const patchFile = join(base, 'change.patch');
      await writeFile(patchFile, scenario.patch);
      const byGit = await withTool(base, 'git', scenario.drifted, (dir) => {
        return spawnSync('git', ['apply', patchFile], { cwd: dir }).status === 0;
      });
      const byPatch = await withTool(base, 'patch', scenario.drifted, (dir) => {
        const args = ['-p1', '--batch', '--silent', '--no-backup-if-mismatch', '-i', patchFile];
        return spawnSync('patch', args, { cwd: dir }).status === 0;
      });
      const byPatchsmith = await withTool(base, 'patchsmith', scenario.drifted, async (dir) => {
        const report = await runEdit({ kind: 'patch', text: scenario.patch }, { root: dir, snapshot: false });
        return report.ok;
      });
      if (byGit) counts.gitApplied++;
      if (byPatch) counts.patchApplied++;
      if (byPatchsmith) counts.patchsmithApplied++;
      for (const [tool, result] of [
        ['git apply', byGit],
        ['patch', byPatch],
      ] as const) {
        if (result === null) continue;
        if (byPatchsmith === null) disagreements.push(`seed ${seed}: ${tool} applied, patchsmith refused`);
        else if (JSON.stringify(result) !== JSON.stringify(byPatchsmith))
          disagreements.push(`seed ${seed}: ${tool} and patchsmith differ`);
      }
    }
    console.log(`differential: ${JSON.stringify(counts)}`);
    expect(disagreements).toStrictEqual([]);
    // The comparison means something only if the other tools applied most drifted diffs.
    expect(counts.gitApplied + counts.patchApplied).toBeGreaterThan(counts.scenarios);
  }, 120_000);
});

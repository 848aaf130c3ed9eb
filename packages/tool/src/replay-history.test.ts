/**
 * Replays real histories with patchsmith's pipeline: for every commit, `git diff A B` applied with
 * `runEdit` (format unified, snapshot off) to a checkout of A must give tree B byte for byte,
 * executable bits included.
 *
 * Diffs are made with `--binary`: binary files (the generated history's `*.bin`, holding NUL
 * bytes) travel as `GIT binary patch` literal and delta hunks, which must replay byte-exact too,
 * through adds, rewrites, in-place edits, renames, mode changes and deletions.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';
import { generateHistory } from './test-support/generate-history.js';
import { git, materialize, treeDifferences } from './test-support/git-trees.js';

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
/** How many recent commits of this repository are replayed: the whole history grows without bound. */
const OWN_COMMITS = 40;
const temps: string[] = [];

afterAll(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

interface Replay {
  replayed: number;
  failures: string[];
  /** How many diffs showed each feature, so a history that misses one cannot pass unnoticed. */
  features: Record<string, number>;
}

const FEATURES: Record<string, RegExp> = {
  rename: /^rename from /m,
  'mode change': /^new mode /m,
  'new file': /^new file mode /m,
  'deleted file': /^deleted file mode /m,
  'no final newline': /^\\ No newline at end of file$/m,
  'CRLF line': /^[ +-].*\r$/m,
  'quoted path': /^diff --git "/m,
  'empty file': /^new file mode \d+\nindex 0+\.\.e69de29/m,
  'binary literal': /^GIT binary patch\nliteral /m,
  'binary delta': /^GIT binary patch\ndelta /m,
  'binary added': /^new file mode \d+\nindex 0+\.\.[0-9a-f]+\nGIT binary patch$/m,
  'binary deleted': /^deleted file mode \d+\nindex [0-9a-f]+\.\.0+\nGIT binary patch$/m,
  'binary renamed': /^rename to .*\.bin\n(?:index .*\n)?GIT binary patch$|^rename to .*\.bin\n(?!index|GIT)/m,
  'binary mode change':
    /^new mode \d+\n(?:.*\n){0,4}?(?:rename to .*\.bin\n)?index [0-9a-f]+\.\.[0-9a-f]+\nGIT binary patch$/m,
};

/**
 * Applies each commit's diff to a folder holding its parent's tree and compares with the commit's
 * tree. After a failure the folder is reset to the commit, so one failure is reported once.
 */
async function replay(
  repo: string,
  commits: readonly string[],
  diffArgs: { options: readonly string[]; pathspec: readonly string[] },
  keep: (path: string) => boolean,
  start: string = EMPTY_TREE,
): Promise<Replay> {
  const work = await tempDir('patchsmith-replay-');
  if (start !== EMPTY_TREE) await materialize(repo, start, work, keep);
  const failures: string[] = [];
  let previous = start;
  let replayed = 0;
  const features = Object.fromEntries(Object.keys(FEATURES).map((name) => [name, 0]));
  for (const commit of commits) {
    const args = ['diff', '-M', '--no-color', '--no-ext-diff', ...diffArgs.options, previous, commit];
    const diff = git(repo, [...args, '--', ...diffArgs.pathspec]).toString('utf8');
    for (const [name, pattern] of Object.entries(FEATURES)) if (pattern.test(diff)) features[name]!++;
    const report =
      diff === ''
        ? null
        : await runEdit({ kind: 'patch', text: diff, format: 'unified' }, { root: work, snapshot: false });
    const problems =
      report === null || report.ok
        ? await treeDifferences(repo, commit, work, keep)
        : report.errors.map((e) => `${e.code} ${e.path ?? ''}: ${e.message}`);
    if (problems.length > 0) {
      failures.push(`${commit.slice(0, 10)}:\n  ${problems.slice(0, 8).join('\n  ')}`);
      await rm(work, { recursive: true, force: true });
      await materialize(repo, commit, work, keep);
    }
    replayed++;
    previous = commit;
  }
  return { replayed, failures, features };
}

/** The repository this file lives in, or null outside a git checkout. */
function ownRepository(): string | null {
  try {
    return git(dirname(fileURLToPath(import.meta.url)), ['rev-parse', '--show-toplevel'])
      .toString()
      .trim();
  } catch {
    return null;
  }
}

describe('replaying history with runEdit (unified diffs)', () => {
  it(`replays the last ${OWN_COMMITS} commits of this repository's own history (what a shallow clone holds)`, async () => {
    const repo = ownRepository();
    if (repo === null) return;
    const all = git(repo, ['rev-list', '--reverse', 'HEAD']).toString().trim().split('\n');
    const commits = all.slice(-OWN_COMMITS);
    const start = all.length > commits.length ? all[all.length - commits.length - 1]! : EMPTY_TREE;
    const { replayed, failures } = await replay(
      repo,
      commits,
      { options: ['--binary'], pathspec: [] },
      () => true,
      start,
    );
    console.log(`replayed ${replayed} commits of this repository's history`);
    expect(failures).toStrictEqual([]);
    expect(replayed).toBe(commits.length);
  }, 60_000);

  it('replays a generated history of 220 commits (renames, modes, deletions, no final newline, CRLF, binary literals and deltas)', async () => {
    const repo = await tempDir('patchsmith-history-');
    const { commits } = await generateHistory(repo, 220, 7);
    const { replayed, failures, features } = await replay(
      repo,
      commits,
      { options: ['--binary'], pathspec: [] },
      () => true,
    );
    console.log(
      `replayed ${replayed} generated commits; diffs showing each feature: ${JSON.stringify(features)}`,
    );
    expect(failures).toStrictEqual([]);
    for (const [name, count] of Object.entries(features)) expect(count, name).toBeGreaterThan(0);
    expect(replayed).toBeGreaterThanOrEqual(200);
  }, 120_000);
});

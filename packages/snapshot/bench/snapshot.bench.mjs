// Times createSnapshot for a 1,000-file plan (files of ~2 KB) inside a git repository, against a
// plain write of the same files. Run after `pnpm run build`: `node bench/snapshot.bench.mjs`.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSnapshot } from '../dist/index.js';

const FILES = 1000;
const FILE_SIZE = 2048;
const ROUNDS = Number(process.env.ROUNDS ?? 7);

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const paths = Array.from(
  { length: FILES },
  (_, i) => `src/dir${String(i % 20).padStart(2, '0')}/file${i}.ts`,
);

/** ~2 KB of source-like text, different per file and per round so no git object is reused. */
function content(path, round) {
  const line = `export const value_${round} = ${JSON.stringify(path)}; // round ${round}\n`;
  return Buffer.from(line.repeat(Math.ceil(FILE_SIZE / line.length)).slice(0, FILE_SIZE));
}

async function writeAll(root, round) {
  for (const path of paths) {
    const abs = join(root, path);
    await fs.mkdir(dirname(abs), { recursive: true });
    await fs.writeFile(abs, content(path, round));
  }
}

const git = (cwd, ...args) =>
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'b',
      GIT_AUTHOR_EMAIL: 'b@b',
      GIT_COMMITTER_NAME: 'b',
      GIT_COMMITTER_EMAIL: 'b@b',
    },
  });

const tmp = await fs.mkdtemp(join(os.tmpdir(), 'patchsmith-snapshot-bench-'));
try {
  const repo = join(tmp, 'repo');
  await fs.mkdir(repo);
  git(repo, 'init', '-q');
  await writeAll(repo, 0);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');

  const snapshotMs = [];
  const snapshotCpuMs = [];
  const plainMs = [];
  const plainCpuMs = [];
  const cpuMs = (since) => {
    const u = process.cpuUsage(since);
    return (u.user + u.system) / 1000;
  };
  for (let round = 1; round <= ROUNDS; round++) {
    await writeAll(repo, round * 1000); // fresh before state, untimed
    const writes = paths.map((path) => {
      const before = content(path, round * 1000);
      return {
        path,
        before: { hash: sha256(before), mode: 0o644 },
        after: { bytes: content(path, round * 1000 + 1), mode: 0o644 },
      };
    });

    let cpu = process.cpuUsage();
    let t = performance.now();
    await createSnapshot({ root: repo, plan: { files: [], writes }, message: `bench round ${round}` });
    snapshotMs.push(performance.now() - t);
    snapshotCpuMs.push(cpuMs(cpu));

    const plain = join(tmp, `plain-${round}`);
    cpu = process.cpuUsage();
    t = performance.now();
    for (const write of writes) {
      const abs = join(plain, write.path);
      await fs.mkdir(dirname(abs), { recursive: true });
      await fs.writeFile(abs, write.after.bytes);
    }
    plainMs.push(performance.now() - t);
    plainCpuMs.push(cpuMs(cpu));
  }

  const fmt = (xs) => xs.map((x) => x.toFixed(0)).join(', ');
  const report = (label, wall, cpuTimes) =>
    console.log(
      `${label.padEnd(52)} median ${median(wall).toFixed(1)} ms wall, ${median(cpuTimes).toFixed(1)} ms cpu  [wall: ${fmt(wall)}]`,
    );
  report(`createSnapshot, ${FILES} files x ${FILE_SIZE} B in a git repo:`, snapshotMs, snapshotCpuMs);
  report('plain write of the same files (sequential):', plainMs, plainCpuMs);
  console.log(`ratio (wall medians): ${(median(snapshotMs) / median(plainMs)).toFixed(1)}x`);
} finally {
  await fs.rm(tmp, { recursive: true, force: true });
}

import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function writeTree(dir, files) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * The environment of every measured process: this one's, without what makes each Node start do
 * more than a user's would. `NODE_EXTRA_CA_CERTS` (set on some CI machines and sandboxes) loads a
 * certificate bundle at every start: 23 → 65 ms for `node -e 0` on the 2-core VM, a constant that
 * would hide our own start-up behind Node's. `NODE_OPTIONS` could preload anything.
 */
const measuredEnv = (() => {
  const { NODE_EXTRA_CA_CERTS: _certs, NODE_OPTIONS: _options, ...rest } = process.env;
  return rest;
})();

/**
 * Runs every command `runs` times, alternating them (so drift in machine load hits all alike),
 * each time on a fresh copy of `template`; returns median wall ms and peak RSS (MB) per command.
 * A run fails when its exit status is not the command's `status` (default 0).
 */
export function compare({ template, commands, runs, prepare }) {
  const samples = Object.fromEntries(commands.map((c) => [c.name, { ms: [], rssMb: [], failures: 0 }]));
  const scratch = mkdtempSync(join(tmpdir(), 'ps-bench-'));
  try {
    for (let r = 0; r < runs; r++) {
      for (const command of commands) {
        const work = join(scratch, `w${r}-${command.name.replace(/\W+/g, '_')}`);
        cpSync(template, work, { recursive: true });
        prepare?.(work, command);
        // Each run starts from a quiet disk: otherwise the copy's dirty pages (and the previous
        // run's deleted tree) are written back during the next command, and a command that fsyncs
        // pays for flushing them. Without this, `git apply` of the 1,000-file diff took 610 ms
        // against 134 ms after a sync, and ours 1,210 against 798, on the 2-core VM.
        spawnSync('sync');
        const timeFile = join(scratch, 'time.txt');
        const started = process.hrtime.bigint();
        const result = spawnSync('/usr/bin/time', ['-f', '%M', '-o', timeFile, ...command.argv], {
          cwd: work,
          env: measuredEnv,
          input: command.input,
          stdio: ['pipe', 'ignore', 'pipe'],
          maxBuffer: 1 << 26,
        });
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const rssKb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop());
        const s = samples[command.name];
        if (result.status !== (command.status ?? 0)) {
          s.failures++;
          if (s.failures === 1)
            console.error(`! ${command.name} failed: ${result.stderr?.toString().slice(0, 400)}`);
        }
        s.ms.push(ms);
        s.rssMb.push(rssKb / 1024);
        rmSync(work, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, s]) => [
      name,
      {
        medianMs: median(s.ms),
        peakRssMb: s.rssMb.reduce((a, b) => Math.max(a, b), 0),
        runs: s.ms.length,
        failures: s.failures,
      },
    ]),
  );
}

#!/usr/bin/env node
// `pnpm bench` (whole-process part): patchsmith's bins against the reference apply_patch, on the
// workloads of docs/benchmarks.md. Prints a Markdown table and writes results/latest.json.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compare, writeTree } from './measure.mjs';
import { referenceApplyPatch } from './reference.mjs';
import * as workloads from './workloads.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..', '..');
const cli = join(repoRoot, 'apps', 'cli', 'bin');
const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);

const reference = referenceApplyPatch(join(repoRoot, '.cache'));
if (!reference.path) console.warn(`! reference apply_patch unavailable: ${reference.reason}`);

const node = process.execPath;
const commandsFor = (patch, extra = []) => [
  ...(reference.path ? [{ name: 'reference apply_patch', argv: [reference.path], input: patch }] : []),
  { name: 'patchsmith apply_patch', argv: [node, join(cli, 'apply_patch.cjs')], input: patch },
  ...extra,
];

/** The transaction's disk work alone (`floor.mjs`), writing the files of `after` into the tree. */
const floorOf = (after) => ({
  name: 'floor: temp + fsync + rename per file, no parse or plan (floor.mjs)',
  argv: [node, join(here, 'floor.mjs'), after],
});

function gitInit(dir) {
  const git = (...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'base');
}

/** `git diff` between the template and the template with `patch` applied. */
function gitDiffOf(template, patch, base) {
  const repo = join(base, 'diff-repo');
  cpSync(template, repo, { recursive: true });
  gitInit(repo);
  execFileSync(node, [join(cli, 'patchsmith.cjs'), 'apply', '-', '--no-snapshot'], {
    cwd: repo,
    input: patch,
  });
  return execFileSync('git', ['diff'], { cwd: repo, maxBuffer: 1 << 28 });
}

/** Workloads made by one generator with different options: `[id, title, options]` each. */
const variants = (make, runs, rows) =>
  rows.map(([id, title, options]) => ({ id, title, make: () => make(options), runs }));

const plan = [
  { id: 'startup', title: 'one-line patch (start-up)', make: () => workloads.startup(), runs: 15 },
  ...variants(workloads.chunks100k, 7, [
    ['chunks-exact', '100,000-line file, 200 exact chunks', { drift: false }],
    ['chunks-drift', '100,000-line file, 200 chunks, trailing-whitespace drift', { drift: true }],
  ]),
  { id: 'one-chunk', title: '2,000-line file, one chunk', make: () => workloads.oneChunk2k(), runs: 15 },
  {
    id: 'files-1000',
    title: '1,000-file patch',
    make: () => workloads.files1000(),
    runs: 5,
    transaction: true,
  },
  {
    id: 'unified-1000',
    title: '1,000-file unified diff (git diff)',
    make: () => workloads.files1000(),
    runs: 5,
    unified: true,
  },
  {
    id: 'add-10mb',
    title: '10 MB patch (1,000+ new files)',
    make: () => workloads.addTenMegabytes(),
    runs: 5,
  },
  {
    id: 'exact-200k',
    title: '200,000-line file, one exact chunk',
    make: () => workloads.exact200k(),
    runs: 5,
  },
  ...variants(workloads.drift200k, 5, [
    ['indent-200k', '200,000-line file, one chunk indented by two spaces (pass 3)', { uneven: false }],
    ['uneven-200k', '200,000-line file, one chunk with uneven indentation (pass 4)', { uneven: true }],
  ]),
  {
    id: 'braces-200k',
    title: '200,000 `}` lines, a hunk with a line hint',
    make: () => workloads.braces200k({ indented: false }),
    runs: 5,
    hinted: true,
  },
  {
    id: 'braces-indent-200k',
    title: '200,000 `}` lines, a 200-line indented hunk with a line hint (pass 3)',
    make: () => workloads.braces200k({ indented: true }),
    runs: 5,
    hinted: true,
    drifted: true,
  },
  {
    id: 'str-replace-200',
    title: '100,000-line file, 200 str_replace edits',
    make: () => workloads.strReplace100k({ count: 200 }),
    runs: 7,
    edits: true,
  },
  {
    id: 'str-replace-drift-200',
    title: '100,000-line file, 200 str_replace edits, trailing-whitespace drift (pass 2)',
    make: () => workloads.strReplace100k({ count: 200, drift: true }),
    runs: 7,
    edits: true,
  },
  {
    id: 'str-replace-line-200',
    title: '100,000-line file, 200 one-line str_replace edits (searches within a line)',
    make: () => workloads.strReplace100k({ count: 200, oneLine: true }),
    runs: 7,
    edits: true,
  },
  {
    id: 'str-replace-1000',
    title: '100,000-line file, 1,000 str_replace edits',
    make: () => workloads.strReplace100k({ count: 1_000 }),
    runs: 5,
    edits: true,
  },
  {
    id: 'failing-150k',
    title: '150,000 failing chunks (rejected, --json)',
    make: () => workloads.failing150k(),
    runs: 3,
    failing: true,
  },
].filter((w) => !only || only.split(',').includes(w.id));

const results = [];
for (const w of plan) {
  const { files, patch, edits } = w.make();
  const base = mkdtempSync(join(tmpdir(), `ps-bench-${w.id}-`));
  try {
    const template = join(base, 'template');
    mkdirSync(template);
    writeTree(template, files);
    const extra = [];
    // Node's own start-up, the floor under every patchsmith row (issue 14: ours within +10 ms).
    if (w.id === 'startup') extra.push({ name: "node -e 0 (Node's own start-up)", argv: [node, '-e', '0'] });
    if (w.transaction) {
      // The transaction's and the snapshot's cost, against a plain copy of the same after-files.
      const repo = join(base, 'repo');
      cpSync(template, repo, { recursive: true });
      gitInit(repo);
      const after = join(base, 'after');
      cpSync(template, after, { recursive: true });
      execFileSync(node, [join(cli, 'patchsmith.cjs'), 'apply', '-', '--no-snapshot'], {
        cwd: after,
        input: patch,
      });
      extra.push(
        {
          name: 'patchsmith apply (git repo, with snapshot)',
          argv: [node, join(cli, 'patchsmith.cjs'), 'apply', '-'],
          input: patch,
          template: repo,
        },
        { name: 'plain write of the same files (cp)', argv: ['cp', '-r', `${after}/.`, '.'] },
        floorOf(after),
      );
    }
    let commands = commandsFor(patch, extra);
    if (w.hinted) {
      // A unified diff already: the tools a user would pick for it (GNU patch takes the hint too).
      // Neither applies a hunk whose indentation is missing, even told to ignore whitespace
      // (`--ignore-whitespace`, `-l`), so a drifted hunk is measured alone.
      const peers = w.drifted
        ? []
        : [
            { name: 'git apply', argv: ['git', 'apply', '-'], input: patch },
            { name: 'GNU patch', argv: ['patch', '-p1', '-s'], input: patch },
          ];
      commands = [
        ...peers,
        {
          name: 'patchsmith apply (unified)',
          argv: [node, join(cli, 'patchsmith.cjs'), 'apply', '-', '--no-snapshot'],
          input: patch,
        },
      ];
    }
    if (w.failing) {
      // Every command is to reject the patch (exit 1); patchsmith still reports each chunk.
      commands = [
        ...(reference.path
          ? [{ name: 'reference apply_patch', argv: [reference.path], input: patch, status: 1 }]
          : []),
        {
          name: 'patchsmith apply --json',
          argv: [node, join(cli, 'patchsmith.cjs'), 'apply', '-', '--json'],
          input: patch,
          status: 1,
        },
      ];
    }
    if (w.unified) {
      // The same change as `git diff` output, against the tools a user would pick for it.
      const diff = gitDiffOf(template, patch, base);
      commands = [
        { name: 'git apply', argv: ['git', 'apply', '-'], input: diff },
        { name: 'GNU patch', argv: ['patch', '-p1', '-s'], input: diff },
        {
          name: 'patchsmith apply (unified)',
          argv: [node, join(cli, 'patchsmith.cjs'), 'apply', '-', '--no-snapshot'],
          input: diff,
        },
        // gitDiffOf left the patched tree in diff-repo.
        floorOf(join(base, 'diff-repo')),
      ];
    }
    if (w.edits) {
      // str_replace JSON against the same change as one Codex patch (the reference, and ours).
      commands = [
        ...commandsFor(patch),
        {
          name: 'patchsmith apply (str_replace JSON)',
          argv: [node, join(cli, 'patchsmith.cjs'), 'apply', '-', '--no-snapshot'],
          input: edits,
        },
      ];
    }
    const runs = quick ? Math.min(3, w.runs) : w.runs;
    // Commands with their own template (the git repo) are measured in their own pass.
    const own = commands.filter((c) => c.template);
    const shared = commands.filter((c) => !c.template);
    const measured = { ...compare({ template, commands: shared, runs }) };
    for (const c of own) Object.assign(measured, compare({ template: c.template, commands: [c], runs }));
    const perEdit = w.edits ? { edits: JSON.parse(edits).length } : {};
    results.push({
      id: w.id,
      title: w.title,
      patchBytes: Buffer.byteLength(patch),
      commands: measured,
      ...perEdit,
    });
    console.log(`done: ${w.title}`);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

const refName = 'reference apply_patch';
const baselineOf = (r) => r.commands[refName]?.medianMs ?? r.commands['git apply']?.medianMs;
const rows = [
  '| workload | command | median ms | vs baseline | peak RSS MB |',
  '| --- | --- | ---: | ---: | ---: |',
];
for (const r of results) {
  const ref = baselineOf(r);
  for (const [name, m] of Object.entries(r.commands)) {
    const ratio = ref ? `${(m.medianMs / ref).toFixed(2)}×` : '';
    const failed = m.failures ? ` (${m.failures} failed)` : '';
    rows.push(
      `| ${r.title} | ${name}${failed} | ${m.medianMs.toFixed(1)} | ${ratio} | ${m.peakRssMb.toFixed(0)} |`,
    );
  }
}
for (const r of results.filter((x) => x.edits)) {
  const m = r.commands['patchsmith apply (str_replace JSON)'];
  if (m)
    rows.push(
      `| ${r.title} | str_replace: whole-process ms / edits | ${(m.medianMs / r.edits).toFixed(3)} | | |`,
    );
}
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
console.log(`\n${machine}\n\n${rows.join('\n')}`);
mkdirSync(join(here, '..', 'results'), { recursive: true });
writeFileSync(join(here, '..', 'results', 'latest.json'), JSON.stringify({ machine, results }, null, 2));
if (!only && !quick) {
  writeFileSync(join(repoRoot, 'docs', 'benchmarks.svg'), chart(results, machine));
  console.log('wrote docs/benchmarks.svg');
}

/** A bar chart of each command's median relative to the workload's baseline (first bar of each group). */
function chart(results, machine) {
  const rowsOut = [];
  for (const r of results) {
    const ref = baselineOf(r);
    for (const [name, m] of Object.entries(r.commands))
      rowsOut.push({ group: r.title, name, ratio: ref ? m.medianMs / ref : 1, ms: m.medianMs });
  }
  const width = 900;
  const barArea = 420;
  const rowH = 18;
  const max = rowsOut.reduce((m, x) => Math.max(m, x.ratio), 0);
  const scale = (v) => (Math.log10(1 + v) / Math.log10(1 + max)) * barArea;
  let y = 40;
  let group = '';
  const parts = [];
  for (const row of rowsOut) {
    if (row.group !== group) {
      group = row.group;
      y += 8;
      parts.push(`<text x="10" y="${y + 12}" font-weight="bold">${esc(group)}</text>`);
      y += rowH;
    }
    const w = Math.max(1, scale(row.ratio));
    parts.push(`<text x="20" y="${y + 12}">${esc(row.name)}</text>`);
    parts.push(
      `<rect x="330" y="${y + 2}" width="${w.toFixed(1)}" height="${rowH - 6}" fill="${row.name.startsWith('patchsmith') ? '#2b7bb9' : '#999'}"/>`,
    );
    parts.push(
      `<text x="${(336 + w).toFixed(1)}" y="${y + 12}">${row.ms.toFixed(0)} ms (${row.ratio.toFixed(2)}×)</text>`,
    );
    y += rowH;
  }
  const height = y + 20;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="10" y="20" font-size="14" font-weight="bold">patchsmith vs peers: median wall time, relative to the first command of each workload (log scale)</text>
<text x="10" y="34" fill="#555">${esc(machine)}</text>
${parts.join('\n')}
</svg>
`;
}

function esc(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

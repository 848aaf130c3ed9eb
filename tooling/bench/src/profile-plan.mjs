#!/usr/bin/env node
// In-process parse + plan medians of the one-file workloads, for profiling (`node --cpu-prof src/profile-plan.mjs <ids>`); not part of pnpm bench.
import { parseEdits } from '@patchsmith/grammar';
import { planEdits } from '@patchsmith/planner';
import { median } from './measure.mjs';
import * as workloads from './workloads.mjs';

const which = process.argv[2] ?? 'all';
const cases = {
  'str-replace-200': () => {
    const w = workloads.strReplace100k({ count: 200 });
    return { files: w.files, input: w.edits };
  },
  'str-replace-1000': () => {
    const w = workloads.strReplace100k({ count: 1000 });
    return { files: w.files, input: w.edits };
  },
  'str-replace-drift-200': () => {
    const w = workloads.strReplace100k({ count: 200, drift: true });
    return { files: w.files, input: w.edits };
  },
  'str-replace-line-200': () => { const w = workloads.strReplace100k({ count: 200, oneLine: true }); return { files: w.files, input: w.edits }; },
  'chunks-exact': () => {
    const w = workloads.chunks100k({ drift: false });
    return { files: w.files, input: w.patch };
  },
  'chunks-drift': () => {
    const w = workloads.chunks100k({ drift: true });
    return { files: w.files, input: w.patch };
  },
};
for (const [id, make] of Object.entries(cases)) {
  if (which !== 'all' && !which.split(',').includes(id)) continue;
  const { files, input } = make();
  const map = new Map(
    Object.entries(files).map(([p, t]) => [
      p,
      { kind: 'file', bytes: new TextEncoder().encode(t), mode: 0o644 },
    ]),
  );
  const times = [];
  for (let r = 0; r < 7; r++) {
    const t = performance.now();
    const parsed = parseEdits(input);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const planned = planEdits(parsed.value, map, { root: '/virtual' });
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors).slice(0, 500));
    times.push(performance.now() - t);
  }
  console.log(id, median(times).toFixed(1), 'ms', times.map((t) => t.toFixed(0)).join(' '));
}

#!/usr/bin/env node
import { parseEdits } from '@patchsmith/grammar';
import { planEdits } from '@patchsmith/planner';
// In-process comparison with the `diff` package's applyPatch (what a Node host would otherwise
// call): the same unified diff applied to the same 100,000-line file, both sides from parsed text
// to new file contents, medians of alternating runs.
import { applyPatch, createPatch } from 'diff';
import { median } from './measure.mjs';

const N = 100_000;
const CHUNKS = 200;
const lines = Array.from(
  { length: N },
  (_, i) => `    const value_${i} = compute(${i}, "${(i * 7919) % 10007}"); // line ${i}`,
);
const before = `${lines.join('\n')}\n`;
const edited = [...lines];
for (let c = 0; c < CHUNKS; c++) {
  const at = c * (N / CHUNKS) + N / CHUNKS / 2;
  edited[at] = edited[at].replace('compute', 'recompute');
}
const after = `${edited.join('\n')}\n`;
const diffText = createPatch('big.ts', before, after, '', '', { context: 3 }).replace(/^Index:.*\n=+\n/, '');
const bytes = new TextEncoder().encode(before);
const root = '/virtual/root';

const decoder = new TextDecoder();

// Each returns what it made; the checks run after the clock stops, so neither side is timed
// checking its answer.
const viaJsdiff = () => applyPatch(before, diffText);

/** What a host calling jsdiff on a file does: decode the bytes read, apply, encode what it writes. */
const viaJsdiffBytes = () => Buffer.from(applyPatch(decoder.decode(bytes), diffText), 'utf8');

function viaPatchsmith() {
  const parsed = parseEdits(diffText, 'unified');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const files = new Map([['big.ts', { kind: 'file', bytes, mode: 0o644 }]]);
  const planned = planEdits(parsed.value, files, { root });
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors));
  return planned.plan.writes[0].after.bytes;
}

const asText = (out) => (typeof out === 'string' ? out : decoder.decode(out));
const implementations = [
  ['diff.applyPatch', viaJsdiff],
  ['diff.applyPatch, file bytes to file bytes', viaJsdiffBytes],
  ['patchsmith parseEdits+planEdits', viaPatchsmith],
];
// The first 9 rounds are a fresh process's (a CLI run, JIT still warming); the rest a warm host's.
const COLD_ROUNDS = 9;
const ROUNDS = 60;
const samples = Object.fromEntries(implementations.map(([name]) => [name, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, fn] of implementations) {
    const t = performance.now();
    const out = fn();
    samples[name].push(performance.now() - t);
    if (asText(out) !== after) throw new Error(`${name} produced something else`);
  }
}
const cold = (s) => median(s.slice(0, COLD_ROUNDS));
const warm = (s) => median(s.slice(COLD_ROUNDS));
const base = samples['diff.applyPatch'];
console.log(
  `\nIn-process: a 200-hunk unified diff on a 100,000-line file (median of rounds 1-${COLD_ROUNDS} and ${COLD_ROUNDS + 1}-${ROUNDS})\n`,
);
console.log(
  '| implementation | rounds 1-9 ms | vs diff.applyPatch | later rounds ms | vs diff.applyPatch |\n| --- | ---: | ---: | ---: | ---: |',
);
for (const [name, s] of Object.entries(samples))
  console.log(
    `| ${name} | ${cold(s).toFixed(1)} | ${(cold(s) / cold(base)).toFixed(2)}× | ${warm(s).toFixed(1)} | ${(warm(s) / warm(base)).toFixed(2)}× |`,
  );

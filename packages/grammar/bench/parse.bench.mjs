// Parse speed of the Codex grammar on a ~10 MB patch (many files, many chunks, source-like
// lines). Run after a build: `pnpm run build && pnpm run bench`. Prints the median of several runs.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parsePatch } from '../dist/index.js';

// A full collection between runs, so no run pays for the garbage of the previous one.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc');

const TARGET_BYTES = 10 * 1024 * 1024;
const RUNS = 7;

/** Deterministic PRNG (mulberry32), so every run parses the same text. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'const',
  'value',
  'return',
  'if',
  'await',
  'this.state',
  'items',
  'map',
  '=>',
  'result',
  'options',
  'export',
  'function',
  'string',
  'number',
  'null',
  '{',
  '}',
  '(',
  ')',
  ';',
  '===',
  'config.get',
  'throw',
  'new',
];

function makePatch(random) {
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const sourceLine = () => {
    if (random() < 0.08) return '';
    const indent = '  '.repeat(Math.floor(random() * 5));
    const words = [];
    const n = 2 + Math.floor(random() * 12);
    for (let i = 0; i < n; i++) words.push(pick(WORDS));
    return indent + words.join(' ');
  };
  const out = ['*** Begin Patch'];
  let size = 16;
  const push = (line) => {
    out.push(line);
    size += line.length + 1;
  };
  for (let file = 0; size < TARGET_BYTES; file++) {
    const kind = random();
    const path = `src/module${file % 97}/file_${file}.ts`;
    if (kind < 0.15) {
      push(`*** Add File: ${path}`);
      const n = 20 + Math.floor(random() * 200);
      for (let i = 0; i < n; i++) push(`+${sourceLine()}`);
    } else if (kind < 0.2) {
      push(`*** Delete File: ${path}`);
    } else {
      push(`*** Update File: ${path}`);
      if (random() < 0.05) push(`*** Move to: lib/${path}`);
      const chunks = 1 + Math.floor(random() * 8);
      for (let c = 0; c < chunks; c++) {
        const r = random();
        if (r < 0.2) push(`@@ -${10 + c * 40},7 +${10 + c * 40},8 @@ function f${c}() {`);
        else if (r < 0.7) push(`@@ class Thing${c} {`);
        else push('@@');
        const lines = 3 + Math.floor(random() * 20);
        for (let i = 0; i < lines; i++) {
          const p = random();
          push((p < 0.6 ? ' ' : p < 0.8 ? '-' : '+') + sourceLine());
        }
        if (c === chunks - 1 && random() < 0.1) push('*** End of File');
      }
    }
  }
  out.push('*** End Patch');
  return `${out.join('\n')}\n`;
}

const text = makePatch(prng(42));
const megabytes = Buffer.byteLength(text) / (1024 * 1024);
const wall = [];
const cpu = [];
let summary = '';
for (let run = 0; run < RUNS; run++) {
  collectGarbage();
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  let result = parsePatch(text);
  wall.push(performance.now() - start);
  const cpuUsed = process.cpuUsage(cpuStart);
  cpu.push((cpuUsed.user + cpuUsed.system) / 1000);
  if (!result.ok) throw new Error(`bench patch did not parse: ${result.errors[0]?.message}`);
  const ops = result.value.operations;
  const chunks = ops.reduce((n, op) => n + (op.kind === 'update' ? op.chunks.length : 0), 0);
  summary = `${ops.length} operations, ${chunks} chunks, ${text.split('\n').length - 1} lines`;
  result = null;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (ms) => (megabytes / (ms / 1000)).toFixed(1);
console.log(`@patchsmith/grammar parsePatch: ${megabytes.toFixed(2)} MB (${summary}), ${RUNS} runs`);
console.log(
  `  wall: ${wall.map((t) => t.toFixed(0)).join(', ')} ms; median ${median(wall).toFixed(0)} ms = ${rate(median(wall))} MB/s`,
);
// CPU time (all threads of the process, GC helpers included) is what the parser costs; wall time
// also counts waiting for a core on a busy machine.
console.log(
  `  cpu:  ${cpu.map((t) => t.toFixed(0)).join(', ')} ms; median ${median(cpu).toFixed(0)} ms = ${rate(median(cpu))} MB/s`,
);

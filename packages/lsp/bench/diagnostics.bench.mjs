// Time to diagnostics through real language servers: the first edit (cold server: start, initialise,
// load the project) and later edits to a warm server, for TypeScript and Python. Prints medians.
// Run after `pnpm run build`: node bench/diagnostics.bench.mjs [coldRuns] [warmEdits]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDiagnosticsSession } from '../dist/index.js';

const COLD_RUNS = Number(process.argv[2] ?? 3);
const WARM_EDITS = Number(process.argv[3] ?? 10);

const languages = [
  {
    name: 'TypeScript',
    file: 'src/main.ts',
    files: {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', noEmit: true },
      }),
      'package.json': '{"type":"module"}',
    },
    base: 'export function double(n: number): number {\n  return n * 2;\n}\n',
    line: (i, broken) => `export const v${i}: ${broken ? 'string' : 'number'} = double(${i});\n`,
  },
  {
    name: 'Python',
    file: 'main.py',
    files: { 'pyrightconfig.json': '{}' },
    base: 'def double(n: int) -> int:\n    return n * 2\n',
    line: (i, broken) => `v${i}: ${broken ? 'str' : 'int'} = double(${i})\n`,
  },
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function project(lang) {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'patchsmith-lsp-bench-'));
  for (const [name, text] of Object.entries(lang.files)) await fs.writeFile(path.join(root, name), text);
  const file = path.join(root, lang.file);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, lang.base);
  return { root, file };
}

/** One edit: write the new content as an apply would, then time the diagnostics. */
async function timedEdit(session, file, before, after, expectErrors) {
  await fs.writeFile(file, after);
  const start = performance.now();
  const [result] = await session.collect([{ path: file, before, after }]);
  const ms = performance.now() - start;
  if (result.status !== 'ok') throw new Error(`${file}: ${result.status} ${result.note ?? ''}`);
  if (result.diagnostics.length !== expectErrors) {
    throw new Error(
      `${file}: expected ${expectErrors} new errors, got ${JSON.stringify(result.diagnostics)}`,
    );
  }
  return ms;
}

async function bench(lang) {
  const cold = [];
  const warm = [];
  for (let run = 0; run < COLD_RUNS; run++) {
    const { root, file } = await project(lang);
    const session = createDiagnosticsSession({ root });
    try {
      let text = lang.base;
      const first = text + lang.line(0, true);
      cold.push(await timedEdit(session, file, text, first, 1));
      text = first;
      if (run === 0) {
        for (let i = 1; i <= WARM_EDITS; i++) {
          const broken = i % 2 === 1;
          const next = text + lang.line(i, broken);
          warm.push(await timedEdit(session, file, text, next, broken ? 1 : 0));
          text = next;
        }
      }
    } finally {
      await session.dispose();
      await fs.rm(root, { recursive: true, force: true });
    }
  }
  return { cold, warm };
}

console.log(`patchsmith lsp bench: ${COLD_RUNS} cold runs, ${WARM_EDITS} warm edits per language (ms)`);
for (const lang of languages) {
  const { cold, warm } = await bench(lang);
  const fmt = (xs) => xs.map((x) => x.toFixed(0)).join(' ');
  console.log(`${lang.name.padEnd(10)} cold median ${median(cold).toFixed(0)} ms  [${fmt(cold)}]`);
  console.log(`${lang.name.padEnd(10)} warm median ${median(warm).toFixed(0)} ms  [${fmt(warm)}]`);
}

// Times locating against the built package: `pnpm run build && pnpm run bench`.
// Each run indexes the file afresh (the index is built once per file and pass, as in real use).
import { performance } from 'node:perf_hooks';
import { indexFile, locateChunk } from '../dist/index.js';

const RUNS = 9;

function largeFile(count) {
  const lines = [];
  for (let i = 0; i < count; i++) {
    if (i % 10 === 9) lines.push('  }');
    else if (i % 10 === 0) lines.push('');
    else lines.push(`  const v${i} = compute(${(i * 2654435761) % 1000003}, "k-${i % 97}");`);
  }
  return lines;
}

function spreadChunks(lines, count, drift) {
  const step = Math.floor(lines.length / count);
  const chunks = [];
  for (let c = 0; c < count; c++) {
    const start = c * step + 3;
    chunks.push({
      anchors: [],
      endOfFile: false,
      line: c,
      lines: [
        { kind: 'context', text: drift(lines[start]), line: 0 },
        { kind: 'context', text: drift(lines[start + 1]), line: 0 },
        { kind: 'remove', text: drift(lines[start + 2]), line: 0 },
        { kind: 'add', text: `  replaced(${c});`, line: 0 },
        { kind: 'context', text: drift(lines[start + 3]), line: 0 },
      ],
    });
  }
  return chunks;
}

function locateAll(lines, chunks) {
  const file = indexFile(lines);
  let cursor = 0;
  for (const chunk of chunks) {
    const result = locateChunk(file, chunk, { cursor });
    if (!result.ok) throw new Error(result.message);
    cursor = result.cursor;
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function bench(name, fn) {
  fn(); // warm-up
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  console.log(`${name.padEnd(62)} median ${median(times).toFixed(2)} ms (${RUNS} runs)`);
}

const big = largeFile(100_000);
const exact = spreadChunks(big, 200, (l) => l);
const trailing = spreadChunks(big, 200, (l) => `${l}  `);
const small = largeFile(2_000);
const one = spreadChunks(small, 1, (l) => l).map((c) => ({ ...c, lines: c.lines }));
const oneMid = [{ ...one[0], lines: spreadChunks(small.slice(1000), 1, (l) => l)[0].lines }];

bench('100,000 lines, 200 exact chunks', () => locateAll(big, exact));
bench('100,000 lines, 200 chunks, trailing whitespace on every line', () => locateAll(big, trailing));
bench('2,000 lines, 1 chunk', () => locateAll(small, oneMid));

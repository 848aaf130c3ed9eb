#!/usr/bin/env node
// `pnpm bench` (warm-host part): a host that keeps patchsmith loaded, the MCP server or an SDK
// adapter. One edit: a one-line str_replace in a 2,000-line file, snapshot off, flipped back and
// forth so every call writes. Measured end to end in one warm process (`runEdit`: read, plan, gate,
// transaction, report), and as a `tools/call` round trip from a real MCP client to the
// `patchsmith-mcp` bin over stdio (JSON-RPC framing, argument checks, the result's text and
// structured content). `runEdit` runs twice: over the default fs (every call a thread-pool round
// trip, which never blocks a host's event loop) and over `syncFs` (what the MCP bin passes: it
// serves one call at a time). The first calls load and compile the code paths; a host pays that once.
// `--profile`: the `runEdit` loop alone, many more calls, for `node --cpu-prof`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runEdit, syncFs } from '@patchsmith/tool';
import { median } from './measure.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const mcpBin = join(here, '..', '..', '..', 'apps', 'mcp', 'bin', 'patchsmith-mcp.js');
const profile = process.argv.includes('--profile');
const WARM_UP = 30;
const CALLS = profile ? 2_000 : 200;

/** A root holding the 2,000-line file, and the edit of the `r`th call (there and back again). */
function project() {
  const root = mkdtempSync(join(tmpdir(), 'ps-bench-warm-'));
  const lines = Array.from({ length: 2_000 }, (_, i) => `    const value_${i} = compute(${i}); // line ${i}`);
  writeFileSync(join(root, 'mid.ts'), `${lines.join('\n')}\n`);
  const flip = (from, to) => ({ command: 'str_replace', path: 'mid.ts', old_str: from, new_str: to });
  const edits = [flip('compute(1000)', 'recompute(1000)'), flip('recompute(1000)', 'compute(1000)')];
  return { root, editOf: (r) => edits[r % 2] };
}

/** Median ms of `call(r)` over CALLS calls after WARM_UP; each call must succeed. */
async function measure(call) {
  const times = [];
  for (let r = 0; r < WARM_UP + CALLS; r++) {
    const started = performance.now();
    await call(r);
    if (r >= WARM_UP) times.push(performance.now() - started);
  }
  return median(times);
}

/** `runEdit` in this process, over `fs` (absent: the default, `node:fs/promises`). */
async function viaRunEdit(fs) {
  const { root, editOf } = project();
  try {
    return await measure(async (r) => {
      const report = await runEdit({ kind: 'edits', edits: [editOf(r)] }, { root, snapshot: false, fs });
      if (!report.ok) throw new Error(JSON.stringify(report.errors));
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function viaMcp() {
  const { root, editOf } = project();
  const client = new Client({ name: 'patchsmith-bench', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [mcpBin, '--cwd', root, '--no-snapshot'],
      stderr: 'inherit',
    }),
  );
  try {
    return await measure(async (r) => {
      const { command, path, old_str, new_str } = editOf(r);
      const result = await client.callTool({
        name: 'edit',
        arguments: { edits: [{ command, path, old_str, new_str, replace_all: null }], preview: null },
      });
      if (result.isError) throw new Error(JSON.stringify(result.content));
    });
  } finally {
    await client.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const rows = [
  ['runEdit (warm process, default fs: node:fs/promises)', await viaRunEdit()],
  ['runEdit (warm process, fs: syncFs, as the MCP bin runs it)', await viaRunEdit(syncFs)],
];
if (!profile) rows.push(['MCP tools/call round trip (patchsmith-mcp over stdio)', await viaMcp()]);
console.log(`\nWarm host: a one-line edit of a 2,000-line file, snapshot off (median of ${CALLS})\n`);
console.log('| path | median ms |\n| --- | ---: |');
for (const [name, ms] of rows) console.log(`| ${name} | ${ms.toFixed(2)} |`);

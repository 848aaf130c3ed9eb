/**
 * The elided-code guard has no false positive on real code: every change to a text file in this
 * repository's history, and generated edits over real open-source files (test-support/elision-
 * corpus), checked as a patch's hunks, as SEARCH/REPLACE blocks and as a whole file written over
 * the old one, never trip it. A planted placeholder does, so the test can fail.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Chunk, ChunkLine, Operation } from '@patchsmith/core';
import { diffLines } from '@patchsmith/fuzzy';
import { describe, expect, it } from 'vitest';
import { elidedCode } from './elided-code.js';

const CONTEXT = 3;
const here = dirname(fileURLToPath(import.meta.url));

/** The hunks of a diff of two line lists, with CONTEXT kept lines around each change, as a patch's chunks. */
function hunks(before: readonly string[], after: readonly string[]): Chunk[] {
  const lines: Array<ChunkLine & { keep: boolean }> = [];
  let a = 0;
  let b = 0;
  for (const step of diffLines(before, after)) {
    const text = step === '-' ? before[a]! : after[b]!;
    lines.push({
      kind: step === '=' ? 'context' : step === '-' ? 'remove' : 'add',
      text,
      line: lines.length + 1,
      keep: false,
    });
    if (step !== '+') a++;
    if (step !== '-') b++;
  }
  lines.forEach((l, i) => {
    if (l.kind === 'context') return;
    for (let k = Math.max(0, i - CONTEXT); k <= Math.min(lines.length - 1, i + CONTEXT); k++)
      lines[k]!.keep = true;
  });
  const chunks: Chunk[] = [];
  let current: ChunkLine[] = [];
  for (const l of [...lines, null]) {
    if (l?.keep) current.push({ kind: l.kind, text: l.text, line: l.line });
    else if (current.length > 0) {
      chunks.push({ anchors: [], lines: current, endOfFile: false, line: current[0]!.line });
      current = [];
    }
  }
  return chunks;
}

/** Each way a model could send this change; the guard must pass all of them. */
function asEdits(path: string, before: string, after: string): Operation[] {
  const oldLines = before.split('\n');
  const newLines = after.split('\n');
  const chunks = hunks(oldLines, newLines);
  const side = (c: Chunk, kind: 'remove' | 'add') =>
    c.lines
      .filter((l) => l.kind !== kind)
      .map((l) => l.text)
      .join('\n');
  return [
    { kind: 'update', path, chunks, line: 1 },
    ...chunks.map(
      (c): Operation => ({
        kind: 'replace',
        path,
        search: side(c, 'add'),
        replace: side(c, 'remove'),
        all: false,
        wholeLines: true,
        line: c.line,
      }),
    ),
    { kind: 'add', path, lines: newLines, content: after, line: 1 },
  ];
}

/** The guard's errors for every form of the change, as `path: message`. */
function falsePositives(path: string, before: string, after: string): string[] {
  const oldLines = before.split('\n');
  const out: string[] = [];
  for (const op of asEdits(path, before, after)) {
    const error = elidedCode(op, path, op.kind === 'add' ? oldLines : null);
    if (error !== null) out.push(`${path} (${op.kind}): ${error.message}`);
  }
  return out;
}

function git(cwd: string, args: string[], input?: string): Buffer {
  const r = spawnSync('git', args, { cwd, input, maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Blobs by id, read in one `git cat-file --batch`. */
function readBlobs(repo: string, ids: readonly string[]): Map<string, Buffer> {
  const out = git(repo, ['cat-file', '--batch'], `${ids.join('\n')}\n`);
  const blobs = new Map<string, Buffer>();
  let pos = 0;
  for (const id of ids) {
    const headerEnd = out.indexOf(10, pos);
    const size = Number(out.subarray(pos, headerEnd).toString().split(' ')[2]);
    blobs.set(id, out.subarray(headerEnd + 1, headerEnd + 1 + size));
    pos = headerEnd + 1 + size + 1;
  }
  return blobs;
}

/** Text a model would edit: no NUL, valid UTF-8. */
function asText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : null;
}

describe('the elided-code guard on real code', () => {
  it("never trips on a change of this repository's history", () => {
    const repo = git(here, ['rev-parse', '--show-toplevel']).toString().trim();
    const log = git(repo, [
      'log',
      '--no-merges',
      '--raw',
      '--no-abbrev',
      '-M',
      '--diff-filter=MR',
      '--format=',
    ]);
    const changes = log
      .toString('utf8')
      .split('\n')
      .map((line) => /^:\d+ \d+ ([0-9a-f]{40}) ([0-9a-f]{40}) [MR]\d*\t(?:[^\t]*\t)?(.*)$/.exec(line))
      .filter((m) => m !== null)
      .map((m) => ({ old: m[1]!, new: m[2]!, path: m[3]! }));
    const blobs = readBlobs(repo, [...new Set(changes.flatMap((c) => [c.old, c.new]))]);
    const failures: string[] = [];
    let checked = 0;
    for (const change of changes) {
      const before = asText(blobs.get(change.old)!);
      const after = asText(blobs.get(change.new)!);
      if (before === null || after === null) continue;
      checked++;
      failures.push(...falsePositives(change.path, before, after));
    }
    console.log(`checked ${checked} file changes of this repository's history`);
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  }, 60_000);

  const corpus = join(here, 'test-support', 'elision-corpus');
  const files = readdirSync(corpus).filter((name) => name.endsWith('.corpus'));

  it.each(files)('never trips on generated edits over %s', (file) => {
    const path = file.replace(/\.corpus$/, '');
    const text = readFileSync(join(corpus, file), 'utf8');
    const lines = text.split('\n');
    let seed = path.length * 7919;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const failures: string[] = [];
    for (let k = 0; k < 150; k++) {
      // Replace a region by real lines from elsewhere in the file, as a rewrite would.
      const at = next(lines.length);
      const removed = 1 + next(12);
      const from = next(lines.length);
      const added = lines.slice(from, from + next(10));
      const edited = [...lines.slice(0, at), ...added, ...lines.slice(at + removed)].join('\n');
      failures.push(...falsePositives(path, text, edited));
    }
    expect(failures).toEqual([]);
  });

  it.each(files)('does trip on a placeholder planted over a region of %s', (file) => {
    const path = file.replace(/\.corpus$/, '');
    const text = readFileSync(join(corpus, file), 'utf8');
    const lines = text.split('\n');
    const placeholder = path.endsWith('.md')
      ? '<!-- ... rest of the section unchanged ... -->'
      : path.endsWith('.py')
        ? '    # ... existing code ...'
        : '  // ... existing code ...';
    const at = Math.floor(lines.length / 2);
    const edited = [...lines.slice(0, at), placeholder, ...lines.slice(at + 20)].join('\n');
    const ops = asEdits(path, text, edited);
    for (const op of ops) {
      expect(elidedCode(op, path, op.kind === 'add' ? lines : null)?.code, op.kind).toBe('ELIDED_CODE');
    }
  });
});

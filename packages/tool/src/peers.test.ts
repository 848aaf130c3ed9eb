/**
 * Held-out checks: the peers' own test inputs and expected results (Aider, Roo Code, Codex),
 * converted to data under packages/grammar/test-data/peers (see its README), run through
 * `parseEdits` (what a case says the reply parses to) or `runEdit` (the files before and after).
 */

import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEdits } from '@patchsmith/grammar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type PatchInputFormat, runEdit } from './run-edit.js';

interface PeerCase {
  name: string;
  from: string;
  input: string;
  format?: PatchInputFormat;
  /** What the reply parses to: each operation's fields that the case names. */
  operations?: Record<string, unknown>[];
  paths?: string[];
  /** The tree before and after the apply (every file, exactly). */
  before?: Record<string, string>;
  after?: Record<string, string>;
  /** The error code the parse (or, with `before`, the apply) must fail with. */
  error?: string;
}

const DATA = fileURLToPath(new URL('../../grammar/test-data/peers/', import.meta.url));

function loadCases(): [string, PeerCase][] {
  const cases: [string, PeerCase][] = [];
  for (const peer of readdirSync(DATA, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const file of readdirSync(join(DATA, peer.name)).filter((f) => f.endsWith('.json'))) {
      const { cases: list } = JSON.parse(readFileSync(join(DATA, peer.name, file), 'utf8')) as {
        cases: PeerCase[];
      };
      for (const c of list) cases.push([`${peer.name}/${file}: ${c.name}`, c]);
    }
  }
  return cases;
}

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-peers-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Every file under the root but patchsmith's own state, with its text. */
async function tree(dir: string, out: Record<string, string> = {}): Promise<Record<string, string>> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '.patchsmith') await tree(path, out);
    } else out[relative(root, path).split('\\').join('/')] = await readFile(path, 'utf8');
  }
  return out;
}

/** The fields of `actual` that `expected` names. */
function picked(actual: object, expected: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(expected).map((k) => [k, (actual as Record<string, unknown>)[k]]));
}

const cases = loadCases();

describe("the peers' own test inputs", () => {
  it('there are cases from every peer folder', () => {
    expect(new Set(cases.map(([name]) => name.split('/')[0]))).toStrictEqual(
      new Set(['aider', 'cline', 'codex', 'roo-code']),
    );
    expect(cases.length).toBeGreaterThan(40);
  });

  it.each(cases)('%s', async (_name, c) => {
    const format = c.format ?? 'auto';
    if (c.before !== undefined) {
      for (const [path, content] of Object.entries(c.before)) {
        await mkdir(dirname(join(root, path)), { recursive: true });
        await writeFile(join(root, path), content);
      }
      const report = await runEdit({ kind: 'patch', text: c.input, format }, { root, snapshot: false });
      if (c.error !== undefined) expect(report.errors[0]?.code).toBe(c.error);
      else expect(report.errors).toStrictEqual([]);
      expect(await tree(root)).toStrictEqual(c.after);
      return;
    }
    const parsed = parseEdits(c.input, format);
    if (c.error !== undefined) {
      expect(parsed.ok || parsed.errors[0]!.code).toBe(c.error);
      return;
    }
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const ops = parsed.value.operations;
    if (c.paths !== undefined) expect(ops.map((o) => o.path)).toStrictEqual(c.paths);
    if (c.operations !== undefined) {
      expect(ops.map((o, i) => picked(o, c.operations![i] ?? {}))).toStrictEqual(c.operations);
    }
  });
});

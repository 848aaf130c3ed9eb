/**
 * The reference's end-to-end scenarios, at the planner's level: parse the patch (grammar), read
 * the input tree for the touched paths, plan, carry out the writes in memory, and compare the
 * files with `expected/`. Folders (and removing emptied ones) are the transaction's business, so
 * only files are compared here.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePatch } from '@patchsmith/grammar';
import { describe, expect, it } from 'vitest';
import { planEdits } from './plan-edits.js';
import { touchedPaths } from './touched-paths.js';
import type { FileState } from './types.js';

const SCENARIOS =
  process.env.PATCHSMITH_CONFORMANCE_DIR ??
  fileURLToPath(new URL('../../../tooling/fixtures/codex-scenarios', import.meta.url));

/** Where this project deliberately differs (conformance README): a failed patch writes nothing. */
const ALL_OR_NOTHING = new Set(['015_failure_after_partial_success_leaves_changes']);

const names = existsSync(SCENARIOS)
  ? readdirSync(SCENARIOS)
      .filter((n) => /^\d{3}_/.test(n))
      .sort()
  : [];

/** Every file below `dir`, by `/`-separated relative path. */
function readTree(dir: string): Map<string, Uint8Array> {
  const tree = new Map<string, Uint8Array>();
  if (!existsSync(dir)) return tree;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    tree.set(
      full
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
      new Uint8Array(readFileSync(full)),
    );
  }
  return tree;
}

/** What a reader would report for `path` inside `dir`. */
function stateOf(dir: string, path: string): FileState {
  const full = join(dir, path);
  if (!existsSync(full)) return { kind: 'missing' };
  const stat = lstatSync(full);
  if (stat.isDirectory()) return { kind: 'directory' };
  return { kind: 'file', bytes: new Uint8Array(readFileSync(full)), mode: stat.mode & 0o777 };
}

function run(name: string): Map<string, Uint8Array> {
  const input = join(SCENARIOS, name, 'input');
  const tree = readTree(input);
  const parsed = parsePatch(readFileSync(join(SCENARIOS, name, 'patch.txt'), 'utf8'));
  if (!parsed.ok) return tree;
  const root = '/scenario';
  const files = new Map(touchedPaths(parsed.value, root).map((path) => [path, stateOf(input, path)]));
  const planned = planEdits(parsed.value, files, { root });
  if (!planned.ok) return tree;
  for (const write of planned.plan.writes) {
    if (write.after === null) tree.delete(write.path);
    else tree.set(write.path, write.after.bytes);
  }
  return tree;
}

describe('conformance scenarios (planned effect on files)', () => {
  it(`are present in ${SCENARIOS} (set PATCHSMITH_CONFORMANCE_DIR to move them)`, () => {
    expect(names.length).toBeGreaterThanOrEqual(25);
  });

  it.each(names)('%s', (name) => {
    const expected = readTree(join(SCENARIOS, name, ALL_OR_NOTHING.has(name) ? 'input' : 'expected'));
    const actual = run(name);
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, bytes] of expected)
      expect(Buffer.from(actual.get(path) ?? []).toString('latin1'), path).toBe(
        Buffer.from(bytes).toString('latin1'),
      );
  });
});

import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { decidePath, hashBytes, type PermissionPolicy, type PermissionRule } from '@patchsmith/core';
import type { Plan, PlannedWrite } from '@patchsmith/planner';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { readFiles } from './read-files.js';
import { bytes, materialize, shapeOf, type TreeShape } from './test-support/tree.js';

const FILES = ['x.txt', 'y', 'a/x.txt', 'a/y', 'a/c/x.txt', 'b/y'];
/** Every kind of link: to a folder inside, to the sibling folder outside, to a file inside and outside, chains, loops, dangling. */
const LINKS: Record<string, string> = {
  l1: 'a',
  'b/up': '../a/c',
  l2: 'l1',
  lo: '../outside',
  'b/lo': '../../outside/deep',
  fl: 'a/x.txt',
  lf: '../outside/o.txt',
  chain: 'fl',
  loop1: 'loop2',
  loop2: 'loop1',
  dang: 'nowhere/x',
};
const PREFIXES = ['', 'a/', 'a/c/', 'b/', 'l1/', 'l2/', 'b/up/', 'lo/', 'b/lo/', 'loop1/', 'dang/', 'l1/c/'];
const NAMES = ['x.txt', 'y', 'new', 'fl', 'lf', 'chain', 'dang', 'loop1'];
const GLOBS = [
  'a/**',
  'a/c/**',
  'b/**',
  '*.txt',
  'y',
  'l1/**',
  'lo/**',
  'fl',
  'lf',
  'new',
  '**',
  'outside/**',
];
const ACTIONS = ['allow', 'deny', 'ask'] as const;

const ruleArb: fc.Arbitrary<PermissionRule> = fc.record({
  match: fc.constantFrom(...GLOBS),
  action: fc.constantFrom(...ACTIONS),
});
interface Op {
  op: 'update' | 'add' | 'delete' | 'move';
  path: string;
  dest: string;
  text: string;
}
const opArb: fc.Arbitrary<Op> = fc.record({
  op: fc.constantFrom('update', 'add', 'delete', 'move'),
  path: fc.tuple(fc.constantFrom(...PREFIXES), fc.constantFrom(...NAMES)).map(([p, n]) => p + n),
  dest: fc.tuple(fc.constantFrom(...PREFIXES), fc.constantFrom(...NAMES)).map(([p, n]) => p + n),
  text: fc.string({ maxLength: 6 }),
});
const caseArb = fc.record({
  links: fc.subarray(Object.keys(LINKS), { minLength: 4 }),
  rules: fc.array(ruleArb, { minLength: 1, maxLength: 4 }),
  ops: fc.array(opArb, { minLength: 1, maxLength: 6 }),
  askApproved: fc.boolean(),
});

let base: string;
let serial = 0;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'patchsmith-boundary-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A fresh root and its sibling `outside/` (with a file and a folder the links lead to). */
async function scene(links: string[]): Promise<{ root: string; outside: string }> {
  const dir = join(base, String(serial++));
  const root = join(dir, 'root');
  const outside = join(dir, 'outside');
  await mkdir(join(root, '.git'), { recursive: true });
  const file = (text: string) => ({ bytes: bytes(text), mode: 0o644 });
  await materialize(root, { files: Object.fromEntries(FILES.map((f) => [f, file(`${f}\n`)])) });
  await materialize(outside, {
    files: { 'o.txt': file('outside\n'), 'x.txt': file('ox\n'), 'deep/y': file('oy\n') },
  });
  for (const link of links) {
    await mkdir(dirname(join(root, link)), { recursive: true });
    await symlink(LINKS[link]!, join(root, link));
  }
  return { root, outside };
}

/** A plan as a planner would make it from what readFiles says, whatever the path leads to. */
async function planFor(root: string, ops: Op[]) {
  const paths = ops.flatMap((o) => (o.op === 'move' ? [o.path, o.dest] : [o.path]));
  const read = await readFiles(root, paths);
  const writes = new Map<string, PlannedWrite>();
  const beforeOf = (path: string): PlannedWrite['before'] => {
    const state = read.get(path)!;
    return state.kind === 'file' ? { hash: hashBytes(state.bytes), mode: state.mode } : null;
  };
  // A planner never plans a file below another file of the same plan (`a` and `a/x`).
  const nests = (path: string) =>
    [...writes.keys()].some((other) => other.startsWith(`${path}/`) || path.startsWith(`${other}/`));
  const put = (path: string, after: PlannedWrite['after']) => {
    if (!writes.has(path) && !nests(path)) writes.set(path, { path, before: beforeOf(path), after });
  };
  for (const { op, path, dest, text } of ops) {
    const content = { bytes: bytes(text), mode: 0o644 };
    if (op === 'update' || op === 'add') put(path, content);
    else if (op === 'delete') put(path, null);
    else if (dest !== path) {
      put(path, null);
      put(dest, content);
    }
  }
  const plan: Plan = {
    files: [],
    writes: [...writes.values()].filter((w) => w.before !== null || w.after !== null),
  };
  return plan;
}

// A rule set lets a name be written: no deny, and an ask only when approved.
const allows = (policy: PermissionPolicy, name: string, askApproved: boolean) => {
  const { action } = decidePath(name, policy);
  return action === 'allow' || (action === 'ask' && askApproved);
};

/** The names in the tree whose entry changed (content, mode, link text, presence). */
function changedNames(before: TreeShape, after: TreeShape): string[] {
  const names = new Set([...Object.keys(before.files), ...Object.keys(after.files)]);
  return [...names].filter((name) => before.files[name] !== after.files[name]);
}

describe('the boundary, on random trees with symlinks, random rules and random plans', () => {
  it('applyPlan refuses, or writes only files inside the root that the rules allow under every name; outside never changes', async () => {
    const seen = { applied: 0, denied: 0 };
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ links, rules, ops, askApproved }) => {
        const { root, outside } = await scene(links);
        const plan = await planFor(root, ops);
        if (plan.writes.length === 0) return;
        const policy: PermissionPolicy = { rules, source: 'test' };
        const [rootBefore, outsideBefore] = [await shapeOf(root), await shapeOf(outside)];
        const result = await applyPlan(plan, { root, policy, askApproved });
        expect(await shapeOf(outside)).toEqual(outsideBefore);
        const rootAfter = await shapeOf(root);
        if (!result.ok) {
          expect(rootAfter).toEqual(rootBefore);
          if (result.errors.some((e) => e.code === 'DENIED')) seen.denied += 1;
          return;
        }
        seen.applied += 1;
        // Every write was allowed as written, and every entry that changed is allowed under its real name.
        for (const write of plan.writes) expect(allows(policy, write.path, askApproved)).toBe(true);
        for (const name of changedNames(rootBefore, rootAfter)) {
          expect(allows(policy, name, askApproved), name).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
    // Both sides of the law were exercised.
    expect(seen.applied).toBeGreaterThan(10);
    expect(seen.denied).toBeGreaterThan(10);
  });
});

import type { Plan, PlannedWrite } from '@patchsmith/planner';
import fc from 'fast-check';
import { beforeOf, type TreeSpec } from './tree.js';

const DIRS = ['', 'a/', 'a/c/', 'b/', 'n/m/'];
const NAMES = ['x.txt', 'y', 'z.md'];
/** Every path a random tree or plan uses; folder and file names never collide. */
export const POOL = DIRS.flatMap((dir) => NAMES.map((name) => dir + name));
const MODES = [0o644, 0o600, 0o755, 0o640];

const fileArb = fc.record({ bytes: fc.uint8Array({ maxLength: 24 }), mode: fc.constantFrom(...MODES) });
type FileArb = { bytes: Uint8Array; mode: number };

const actionArb = fc.record({
  kind: fc.constantFrom('keep', 'update', 'delete', 'chmod', 'move', 'add'),
  file: fileArb,
  dest: fc.nat(POOL.length - 1),
});
type Action = { kind: string; file: FileArb; dest: number };

/** A random tree and a random plan over it: adds, updates, overwrites, deletes, mode changes, moves. */
export const treeAndPlanArb = fc
  .record({
    present: fc.subarray(POOL, { minLength: 1 }),
    contents: fc.array(fileArb, { minLength: POOL.length, maxLength: POOL.length }),
    emptyDir: fc.boolean(),
    actions: fc.array(actionArb, { minLength: POOL.length, maxLength: POOL.length }),
  })
  .map(({ present, contents, emptyDir, actions }) => {
    const spec: TreeSpec = { files: {}, dirs: emptyDir ? ['e/f'] : [] };
    for (const path of present) spec.files[path] = contents[POOL.indexOf(path)]!;
    return { spec, plan: planFor(spec, actions) };
  })
  .filter(({ plan }) => plan.writes.length > 0);

function planFor(spec: TreeSpec, actions: Action[]): Plan {
  const writes: PlannedWrite[] = [];
  const used = new Set<string>();
  const inTree = (path: string) => path in spec.files;
  POOL.forEach((path, index) => {
    if (used.has(path)) return;
    const action = actions[index]!;
    const existing = spec.files[path];
    const before = beforeOf(spec, path);
    if (!existing) {
      if (action.kind === 'add' || action.kind === 'update') {
        writes.push({ path, before: null, after: action.file });
        used.add(path);
      }
      return;
    }
    used.add(path);
    switch (action.kind) {
      case 'update':
      case 'add':
        writes.push({ path, before, after: action.file });
        return;
      case 'chmod':
        writes.push({
          path,
          before,
          after: { bytes: existing.bytes, mode: existing.mode === 0o755 ? 0o644 : 0o755 },
        });
        return;
      case 'delete':
        writes.push({ path, before, after: null });
        return;
      case 'move': {
        writes.push({ path, before, after: null });
        for (let step = 0; step < POOL.length; step++) {
          const dest = POOL[(action.dest + step) % POOL.length]!;
          if (inTree(dest) || used.has(dest)) continue;
          writes.push({ path: dest, before: null, after: { bytes: action.file.bytes, mode: existing.mode } });
          used.add(dest);
          break;
        }
        return;
      }
    }
  });
  return { files: [], writes };
}

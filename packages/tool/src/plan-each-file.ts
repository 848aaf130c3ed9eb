import type { EditError, EditScript, Operation } from '@patchsmith/core';
import { type Plan, type PlanResult, touchedPaths } from '@patchsmith/planner';

/**
 * The script cut into independent parts: operations that touch a common path (an update and a
 * later move of that file, two edits of one file) stay together, transitively, in script order.
 * An operation whose path is refused forms its own part (the planner reports it).
 */
export function splitByFile(script: EditScript, root: string): EditScript[] {
  // Union-find over operation indices: an operation joins the part of each path it touches.
  const parent = script.operations.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const owner = new Map<string, number>();
  script.operations.forEach((op, i) => {
    for (const path of touchedPaths({ ...script, operations: [op] }, root)) {
      const j = owner.get(path);
      if (j === undefined) owner.set(path, i);
      else parent[find(i)] = find(j);
    }
  });
  const parts = new Map<number, Operation[]>();
  script.operations.forEach((op, i) => {
    const key = find(i);
    const ops = parts.get(key) ?? [];
    ops.push(op);
    parts.set(key, ops);
  });
  return [...parts.values()].map((operations) => ({ ...script, operations }));
}

/**
 * Plans each independent part of the script alone (`plan`), and joins the parts that planned into
 * one plan: every file whose edits all located, the others' errors beside it. Null plan: none did.
 */
export function planEachFile(
  script: EditScript,
  root: string,
  plan: (part: EditScript) => PlanResult,
): { plan: Plan | null; errors: EditError[] } {
  const planned: Plan[] = [];
  const errors: EditError[] = [];
  for (const part of splitByFile(script, root)) {
    const result = plan(part);
    if (result.ok) planned.push(result.plan);
    else errors.push(...result.errors);
  }
  if (planned.length === 0) return { plan: null, errors };
  return {
    plan: { files: planned.flatMap((p) => p.files), writes: planned.flatMap((p) => p.writes) },
    errors,
  };
}

import { PatchsmithError } from '@patchsmith/core';
import { describeChange } from './diff.js';
import type { ChunkReport, FileOp, Plan, PlannedFile } from './types.js';

/** Where the records that made a file's final content start, and which of the plan's records they are. */
interface Chain {
  origin: string;
  indices: number[];
}

/** A record that leaves a file at `path` (an add, an update, or a move to it). */
const leavesFileAt = (file: PlannedFile, path: string) =>
  file.op !== 'delete' && (file.movePath ?? file.path) === path;

/**
 * The records that made what `path` holds at the end, walking back from the last: updates of it,
 * a move onto it (then the source's records before that), up to an add or the file as read.
 */
function chainOf(files: readonly PlannedFile[], path: string): Chain {
  const indices: number[] = [];
  let name = path;
  for (let i = files.length - 1; i >= 0; i--) {
    const file = files[i]!;
    if (file.op === 'delete' && file.path === name) break;
    if (!leavesFileAt(file, name)) continue;
    indices.unshift(i);
    if (file.op === 'add') break;
    name = file.path;
  }
  return { origin: name, indices };
}

/**
 * Where what the plan leaves at `path` comes from: the path it was read at (itself, or the source
 * of a move), and whether the plan wrote it whole (an add) rather than edited what was read.
 */
export function originOf(plan: Plan, path: string): { path: string; added: boolean } {
  const { origin, indices } = chainOf(plan.files, path);
  const first = indices[0];
  return { path: origin, added: first === undefined || plan.files[first]!.op === 'add' };
}

/** The operation the chain amounts to, as one record shows it. */
function opOf(first: PlannedFile, origin: string, path: string): FileOp {
  if (origin !== path) return 'move';
  return first.op === 'add' ? 'add' : 'update';
}

/**
 * The plan with other final bytes for `path` (a formatter's output, a notebook printed back from
 * its cells): its write leaves `after`, and the records that made the file become one record
 * whose diff goes from the content before them to `after`, with their chunks numbered on.
 */
export function restateWrite(plan: Plan, path: string, after: Uint8Array): Plan {
  const { origin, indices } = chainOf(plan.files, path);
  const write = plan.writes.find((w) => w.path === path);
  const source = plan.writes.find((w) => w.path === origin);
  if (indices.length === 0 || write?.after == null || source === undefined) {
    throw new PatchsmithError('IO_ERROR', `the plan does not write a file at ${path}`, { path });
  }
  const before = source.before === null ? null : source.before.bytes;
  if (before === undefined) {
    throw new PatchsmithError('IO_ERROR', `the plan does not carry what ${origin} held`, { path: origin });
  }
  const records = indices.map((i) => plan.files[i]!);
  const first = records[0]!;
  const op = opOf(first, origin, path);
  const chunks: ChunkReport[] = [];
  for (const record of records) {
    const offset = chunks.length;
    for (const c of record.chunks) chunks.push({ ...c, chunk: c.chunk + offset });
  }
  const merged = records.findLast((r) => r.merged !== undefined)?.merged;
  const record: PlannedFile = {
    path: origin,
    op,
    ...(op === 'move' ? { movePath: path } : {}),
    ...describeChange(origin, path, before, after),
    chunks,
    ...(merged === undefined ? {} : { merged }),
  };
  const dropped = new Set(indices);
  return {
    files: plan.files.flatMap((f, i) => (i === indices[0] ? [record] : dropped.has(i) ? [] : [f])),
    writes: plan.writes.map((w) => (w === write ? { ...w, after: { ...write.after!, bytes: after } } : w)),
  };
}

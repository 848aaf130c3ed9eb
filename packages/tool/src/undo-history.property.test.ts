import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetSnapshot, gcSnapshots, listSnapshots } from '@patchsmith/snapshot';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { runEdit } from './run-edit.js';
import { redoLast, undoLast } from './undo.js';

// The undo history as a state machine: random applies, hand edits, undos (forced or not), redos,
// forgets and gcs against a model of the tree and of the snapshots. Laws: an undo without force
// restores exactly the newest snapshot whose files still hold what its apply wrote (so it never
// writes over a hand edit, and is never stuck while such a snapshot exists); `log` states agree.

const PATHS = ['a.txt', 'b.txt', 'c.txt'] as const;
type Path = (typeof PATHS)[number];
type Tree = Map<Path, string | null>;

interface ModelSnapshot {
  id: string;
  before: Tree;
  after: Tree;
  undone: boolean;
  /** What the undo overwrote (the paths it wrote), while a redo can take it back; with its order. */
  redo: { overwrote: Tree; order: number } | null;
}

interface Model {
  disk: Tree;
  snapshots: ModelSnapshot[];
  counter: number;
}

interface Real {
  root: string;
}

const holds = (disk: Tree, expected: Tree) =>
  [...expected].every(([path, content]) => disk.get(path) === content);

async function readTree(root: string): Promise<Tree> {
  const tree: Tree = new Map();
  for (const path of PATHS) tree.set(path, await readFile(join(root, path), 'utf8').catch(() => null));
  return tree;
}

async function checkAgreement(model: Model, real: Real): Promise<void> {
  expect(await readTree(real.root)).toEqual(model.disk);
  const listed = await listSnapshots({ root: real.root });
  const expected = [...model.snapshots].reverse().map((s) => ({
    id: s.id,
    state: s.undone ? 'undone' : holds(model.disk, s.after) ? 'applied' : 'stale',
  }));
  expect(listed.map((s) => ({ id: s.id, state: s.state }))).toEqual(expected);
}

/** One patch that leaves `path` holding `content` (or removes it). */
function patchTo(path: Path, from: string | null, content: string | null): string {
  if (content === null) return `*** Begin Patch\n*** Delete File: ${path}\n*** End Patch`;
  if (from === null) return `*** Begin Patch\n*** Add File: ${path}\n+${content.trimEnd()}\n*** End Patch`;
  return `*** Begin Patch\n*** Update File: ${path}\n@@\n-${from.trimEnd()}\n+${content.trimEnd()}\n*** End Patch`;
}

class Apply implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly path: Path,
    readonly remove: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const from = model.disk.get(this.path) ?? null;
    const content = this.remove && from !== null ? null : `v${++model.counter}\n`;
    const report = await runEdit(
      { kind: 'patch', text: patchTo(this.path, from, content) },
      { root: real.root },
    );
    expect(report.errors).toEqual([]);
    const before: Tree = new Map([[this.path, from]]);
    const after: Tree = new Map([[this.path, content]]);
    model.disk.set(this.path, content);
    model.snapshots.push({ id: report.snapshot!, before, after, undone: false, redo: null });
    await checkAgreement(model, real);
  }
  toString = () => `apply(${this.path}${this.remove ? ', delete' : ''})`;
}

class HandEdit implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly path: Path,
    readonly remove: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const content = this.remove ? null : `hand${++model.counter}\n`;
    if (content === null) await unlink(join(real.root, this.path)).catch(() => {});
    else await writeFile(join(real.root, this.path), content);
    model.disk.set(this.path, content);
    await checkAgreement(model, real);
  }
  toString = () => `hand(${this.path}${this.remove ? ', delete' : ''})`;
}

class Undo implements fc.AsyncCommand<Model, Real> {
  constructor(readonly force: boolean) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const candidates = model.snapshots.filter((s) => !s.undone).reverse();
    const expected = this.force ? candidates[0] : candidates.find((s) => holds(model.disk, s.after));
    const report = await undoLast({ root: real.root, force: this.force });
    if (expected === undefined) {
      expect(report.ok).toBe(false);
      expect(report.errors[0]?.code).toMatch(candidates.length === 0 ? 'NO_SNAPSHOT' : 'STALE');
    } else {
      expect(report.errors).toEqual([]);
      expect(report.undone).toBe(expected.id);
      // Every newer one was passed over, and said so.
      const newer = candidates.slice(0, candidates.indexOf(expected)).map((s) => s.id);
      expect(report.skipped.map((s) => s.id)).toEqual(newer);
      const overwrote: Tree = new Map();
      for (const [path, content] of expected.before) {
        if (model.disk.get(path) !== content) overwrote.set(path, model.disk.get(path) ?? null);
        model.disk.set(path, content);
      }
      expected.undone = true;
      expected.redo = overwrote.size === 0 ? null : { overwrote, order: ++model.counter };
    }
    await checkAgreement(model, real);
  }
  toString = () => `undo(${this.force ? 'force' : ''})`;
}

class Redo implements fc.AsyncCommand<Model, Real> {
  constructor(readonly force: boolean) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const redoable = model.snapshots.filter((s) => s.undone && s.redo !== null);
    const latest = redoable.sort((a, b) => b.redo!.order - a.redo!.order)[0];
    const report = await redoLast({ root: real.root, force: this.force });
    const wrote =
      latest === undefined
        ? null
        : new Map([...latest.redo!.overwrote.keys()].map((p) => [p, latest.before.get(p) ?? null]));
    if (latest === undefined || (!this.force && !holds(model.disk, wrote!))) {
      expect(report.ok).toBe(false);
      expect(report.errors[0]?.code).toBe(latest === undefined ? 'NO_SNAPSHOT' : 'STALE');
    } else {
      expect(report.errors).toEqual([]);
      expect(report.undone).toBe(latest.id);
      for (const [path, content] of latest.redo!.overwrote) model.disk.set(path, content);
      latest.undone = false;
      latest.redo = null;
    }
    await checkAgreement(model, real);
  }
  toString = () => `redo(${this.force ? 'force' : ''})`;
}

class Forget implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.snapshots.length > 0;
  async run(model: Model, real: Real) {
    const [gone] = model.snapshots.splice(this.pick % model.snapshots.length, 1);
    await forgetSnapshot({ root: real.root, id: gone!.id });
    await checkAgreement(model, real);
  }
  toString = () => `forget(#${this.pick})`;
}

class Gc implements fc.AsyncCommand<Model, Real> {
  constructor(readonly keep: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const result = await gcSnapshots({ root: real.root, keep: this.keep });
    const dropped = model.snapshots.length - Math.min(this.keep, model.snapshots.length);
    expect(result.removed).toEqual(
      model.snapshots
        .slice(0, dropped)
        .reverse()
        .map((s) => s.id),
    );
    model.snapshots.splice(0, dropped);
    await checkAgreement(model, real);
  }
  toString = () => `gc(keep ${this.keep})`;
}

const path = fc.constantFrom(...PATHS);
// Weighted towards applies, hand edits and undos: the histories where a newer snapshot went stale.
const apply = fc.tuple(path, fc.boolean()).map(([p, d]) => new Apply(p, d));
const handEdit = fc.tuple(path, fc.boolean()).map(([p, d]) => new HandEdit(p, d));
const undo = fc.boolean().map((force) => new Undo(force));
const commands = [
  apply,
  apply,
  apply,
  handEdit,
  handEdit,
  undo,
  fc.constant(new Undo(false)),
  fc.constant(new Undo(false)),
  fc.boolean().map((force) => new Redo(force)),
  fc.nat(8).map((n) => new Forget(n)),
  fc.integer({ min: 1, max: 4 }).map((n) => new Gc(n)),
];

it('undo, redo, forget and gc keep the history true to the tree (state machine)', async () => {
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { size: 'large', maxCommands: 24 }), async (cmds) => {
      const root = await mkdtemp(join(tmpdir(), 'patchsmith-history-'));
      try {
        execFileSync('git', ['init', '-q', root]);
        await writeFile(join(root, 'a.txt'), 'v0\n');
        const model: Model = { disk: await readTree(root), snapshots: [], counter: 0 };
        await fc.asyncModelRun(() => ({ model, real: { root } }), cmds);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    }),
    { numRuns: 40 },
  );
}, 120_000);

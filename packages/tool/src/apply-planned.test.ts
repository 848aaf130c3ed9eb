import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlanned } from './apply-planned.js';
import type { EditPlan } from './edit-plan.js';
import { planEdit } from './run-edit.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-planned-'));
  await writeFile(join(root, 'a.txt'), 'one\ntwo\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const input = {
  kind: 'patch',
  text: '*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n*** Add File: b.txt\n+new\n*** End Patch',
} as const;
const read = (path: string) => readFile(join(root, path), 'utf8');

/** The plan as a host keeps it: through JSON. */
async function plannedJson(): Promise<EditPlan> {
  const planned = await planEdit(input, { root });
  if (!planned.ok) throw new Error(planned.errors[0]!.message);
  return JSON.parse(JSON.stringify(planned.edit)) as EditPlan;
}

describe('planEdit and applyPlanned', () => {
  it('plans a JSON-serialisable edit with an id and a fingerprint of the files it read, writing nothing', async () => {
    const plan = await plannedJson();
    expect(plan.id).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(plan.fingerprint)).toEqual(['a.txt', 'b.txt']);
    expect(plan.fingerprint['b.txt']).toBe('missing');
    expect(plan.files.map((f) => [f.path, f.op])).toEqual([
      ['a.txt', 'update'],
      ['b.txt', 'add'],
    ]);
    expect(plan.files[0]!.diff).toContain('-two\n+TWO\n');
    expect((await readdir(root)).sort()).toEqual(['a.txt']);
    // The same edit of the same files is the same plan.
    expect((await plannedJson()).id).toBe(plan.id);
  });

  it('applies exactly the plan it was given', async () => {
    const plan = await plannedJson();
    const report = await applyPlanned(plan, { snapshot: false });
    expect(report.ok).toBe(true);
    expect(await read('a.txt')).toBe('one\nTWO\n');
    expect(await read('b.txt')).toBe('new\n');
  });

  it('fails STALE, naming the file, when a file changed since the plan, even when the edit still applies', async () => {
    const plan = await plannedJson();
    await writeFile(join(root, 'a.txt'), 'zero\none\ntwo\n');
    const report = await applyPlanned(plan, { snapshot: false });
    expect(report).toMatchObject({ ok: false, errors: [{ code: 'STALE', path: 'a.txt' }] });
    expect(report.errors[0]!.message).toContain('a.txt');
    expect(await read('a.txt')).toBe('zero\none\ntwo\n');
    expect((await readdir(root)).sort()).toEqual(['a.txt']);
  });

  it('fails STALE when the edit no longer applies at all, with the planning error after it', async () => {
    const plan = await plannedJson();
    await writeFile(join(root, 'a.txt'), 'something else\n');
    const report = await applyPlanned(plan, { snapshot: false });
    expect(report.errors.map((e) => e.code)).toEqual(['STALE', 'NO_MATCH']);
    expect(await read('a.txt')).toBe('something else\n');
  });

  it('refuses a plan whose parts disagree (the diff shown is not what its input writes)', async () => {
    const plan = await plannedJson();
    const shown = { ...plan, files: plan.files.map((f) => ({ ...f, diff: f.diff.replace('+TWO', '+two') })) };
    expect((await applyPlanned(shown, { snapshot: false })).errors[0]!.code).toBe('INVALID_EDIT');
    const swapped = {
      ...plan,
      input: { kind: 'patch', text: input.text.replace('+TWO', '+EVIL') },
    } as EditPlan;
    expect((await applyPlanned(swapped, { snapshot: false })).errors[0]!.code).toBe('INVALID_EDIT');
    expect((await applyPlanned({ version: 2 } as unknown as EditPlan)).errors[0]!.code).toBe('INVALID_EDIT');
    expect(await read('a.txt')).toBe('one\ntwo\n');
  });

  it('refuses a plan made for another root, and keeps every rule of the root', async () => {
    const plan = await plannedJson();
    const other = await applyPlanned(plan, { root: join(root, 'sub') });
    expect(other.errors[0]!.message).toContain('the plan was made for');
    await writeFile(
      join(root, '.patchsmith.json'),
      JSON.stringify({ permissions: [{ match: 'b.txt', action: 'deny' }] }),
    );
    const denied = await applyPlanned(plan, { snapshot: false });
    expect(denied.errors[0]!.code).toBe('DENIED');
    expect((await readdir(root)).sort()).toEqual(['.patchsmith.json', 'a.txt']);
  });

  it('applies a plan if and only if no file it read changed (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.string({ maxLength: 8 }), async (touch, extra) => {
        await writeFile(join(root, 'a.txt'), 'one\ntwo\n');
        await rm(join(root, 'b.txt'), { force: true });
        const plan = await plannedJson();
        if (touch) await writeFile(join(root, 'a.txt'), `one\ntwo\n${extra}x\n`);
        const report = await applyPlanned(plan, { snapshot: false });
        return (
          report.ok === !touch &&
          (touch ? report.errors[0]!.code === 'STALE' : (await read('b.txt')) === 'new\n')
        );
      }),
      { numRuns: 15 },
    );
  });

  it('plans again with the options the plan was made with: elision allowed, partial, read versions', async () => {
    await writeFile(join(root, 'c.ts'), 'function f() {\n  a();\n  b();\n  c();\n}\n');
    const elided = {
      kind: 'patch',
      text: '*** Begin Patch\n*** Update File: c.ts\n@@\n function f() {\n-  a();\n-  b();\n-  c();\n+  // ... existing code ...\n+  d();\n }\n*** End Patch',
    } as const;
    expect((await planEdit(elided, { root })).ok).toBe(false);
    const allowed = await planEdit(elided, { root, allowElision: true });
    if (!allowed.ok) throw new Error(allowed.errors[0]!.message);
    const kept = JSON.parse(JSON.stringify(allowed.edit)) as EditPlan;
    expect(kept.planning).toEqual({ allowElision: true, partial: false, formatCode: false, readHashes: null });
    expect((await applyPlanned(kept, { snapshot: false })).ok).toBe(true);
    expect(await read('c.ts')).toContain('// ... existing code ...');

    // A merge against what the model read: the plan keeps the read version by hash, and the host
    // gives the content back (it must be that version).
    await writeFile(join(root, 'a.txt'), 'zero\none\ntwo\n');
    const shown = 'one\ntwo\n';
    const merge = await planEdit(input, { root, readVersions: { 'a.txt': { content: shown } } });
    if (!merge.ok) throw new Error(merge.errors[0]!.message);
    const plan = JSON.parse(JSON.stringify(merge.edit)) as EditPlan;
    expect(Object.keys(plan.planning.readHashes ?? {})).toEqual(['a.txt']);
    const wrong = await applyPlanned(plan, {
      snapshot: false,
      readVersions: { 'a.txt': { content: 'other\n' } },
    });
    expect(wrong.errors[0]!.code).toBe('INVALID_EDIT');
    expect(await read('a.txt')).toBe('zero\none\ntwo\n');
    const report = await applyPlanned(plan, {
      snapshot: false,
      readVersions: { 'a.txt': { content: shown } },
    });
    expect(report.ok).toBe(true);
    expect(await read('a.txt')).toBe('zero\none\nTWO\n');
  });

  it('refuses a plan whose planning options are missing or malformed', async () => {
    const plan = await plannedJson();
    for (const planning of [
      undefined,
      { allowElision: 'yes', partial: false, readHashes: null },
      { allowElision: false, partial: false, formatCode: 'yes', readHashes: null },
    ]) {
      const report = await applyPlanned({ ...plan, planning } as unknown as EditPlan, { snapshot: false });
      expect(report.errors[0]!.code).toBe('INVALID_EDIT');
    }
    expect((await readdir(root)).sort()).toEqual(['a.txt']);
  });
});

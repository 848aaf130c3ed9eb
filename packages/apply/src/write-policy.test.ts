import * as nodeFs from 'node:fs/promises';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashBytes, type PermissionPolicy } from '@patchsmith/core';
import type { Plan, PlannedWrite } from '@patchsmith/planner';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { caseInsensitiveAt } from './case-folding.js';
import { bytes, makeRoot, materialize, removeRoot, shapeOf } from './test-support/tree.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await removeRoot(root);
});

const CONFIG = JSON.stringify({ permissions: [{ match: 'secrets/**', action: 'deny' }] });

/** A root with secrets/key.txt, docs/a.md, the config, and the symlinks `decorate` makes. */
async function setup(decorate?: (root: string) => Promise<void>): Promise<string> {
  const root = await makeRoot();
  roots.push(root);
  await materialize(root, {
    files: {
      'secrets/key.txt': { bytes: bytes('key\n'), mode: 0o644 },
      'docs/a.md': { bytes: bytes('a\n'), mode: 0o644 },
      '.patchsmith.json': { bytes: bytes(CONFIG), mode: 0o644 },
    },
  });
  await decorate?.(root);
  return root;
}

/** A write of `text` over `was` (null: the path is absent). */
const put = (path: string, was: string | null, text: string): PlannedWrite => ({
  path,
  before: was === null ? null : { hash: hashBytes(bytes(was)), mode: 0o644 },
  after: { bytes: bytes(text), mode: 0o644 },
});
const remove = (path: string, was: string): PlannedWrite => ({
  path,
  before: { hash: hashBytes(bytes(was)), mode: 0o644 },
  after: null,
});
const planOf = (...writes: PlannedWrite[]): Plan => ({ files: [], writes });

/** Applies and expects a refusal with these codes, the tree byte-identical. */
async function expectRefused(root: string, plan: Plan, options: object = {}) {
  const before = await shapeOf(root);
  const result = await applyPlan(plan, { root, ...options });
  expect(result.ok).toBe(false);
  expect(await shapeOf(root)).toEqual(before);
  return result.ok ? [] : result.errors;
}

describe('applyPlan decides every write by the rules, under the path as written and the real path', () => {
  it('a deny holds through a symlinked folder (update and add), naming the rule and the real path', async () => {
    const root = await setup((r) => symlink('../secrets', join(r, 'docs/s')));
    const errors = await expectRefused(
      root,
      planOf(put('docs/s/key.txt', 'key\n', 'stolen\n'), put('docs/s/new.txt', null, 'x\n')),
    );
    expect(errors).toEqual([
      expect.objectContaining({ code: 'DENIED', path: 'docs/s/key.txt' }),
      expect.objectContaining({ code: 'DENIED', path: 'docs/s/new.txt' }),
    ]);
    expect(errors[0]!.message).toBe(
      'Permission denied: docs/s/key.txt (real path secrets/key.txt) by rule 1 {"match": "secrets/**", "action": "deny"} of .patchsmith.json; nothing was written',
    );
  });

  it('a deny holds through a symlink file, for an update and for a delete', async () => {
    const root = await setup((r) => symlink('../secrets/key.txt', join(r, 'docs/key.txt')));
    const errors = await expectRefused(root, planOf(put('docs/key.txt', 'key\n', 'stolen\n')));
    expect(errors).toMatchObject([{ code: 'DENIED', path: 'docs/key.txt' }]);
    expect(errors[0]!.message).toContain('(real path secrets/key.txt)');
    await expectRefused(root, planOf(remove('docs/key.txt', 'key\n')));
  });

  it('an ask path is refused unless the caller says it was approved', async () => {
    const root = await setup();
    const policy: PermissionPolicy = { rules: [{ match: 'docs/**', action: 'ask' }], source: 'options' };
    const plan = planOf(put('docs/a.md', 'a\n', 'b\n'));
    const errors = await expectRefused(root, plan, { policy });
    expect(errors[0]!.message).toBe(
      'Permission needed for docs/a.md (rule 1 {"match": "docs/**", "action": "ask"} of options), and nobody approved it; nothing was written',
    );
    expect(await applyPlan(plan, { root, policy, askApproved: true })).toEqual({ ok: true });
    expect(await readFile(join(root, 'docs/a.md'), 'utf8')).toBe('b\n');
  });

  it('reports every refusal together, and writes none of the allowed writes', async () => {
    const root = await setup((r) => symlink('../secrets', join(r, 'docs/s')));
    const errors = await expectRefused(
      root,
      planOf(
        put('docs/a.md', 'a\n', 'b\n'),
        put('docs/s/key.txt', 'key\n', 'x\n'),
        remove('secrets/key.txt', 'key\n'),
      ),
    );
    expect(errors.map((e) => e.path)).toEqual(['docs/s/key.txt', 'secrets/key.txt']);
  });

  it('a broken config is PARSE_ERROR naming it, and nothing is written', async () => {
    const root = await setup();
    await writeFile(join(root, '.patchsmith.json'), '{ "permissions": [');
    const errors = await expectRefused(root, planOf(put('docs/a.md', 'a\n', 'b\n')));
    expect(errors).toMatchObject([{ code: 'PARSE_ERROR', path: '.patchsmith.json' }]);
  });

  it('names that start with dots are names, not climbs', async () => {
    const root = await setup();
    const plan = planOf(
      put('..foo', null, 'foo\n'),
      put('.../x', null, 'x\n'),
      put('docs/..bar', null, 'bar\n'),
    );
    expect(await applyPlan(plan, { root })).toEqual({ ok: true });
    expect(await readFile(join(root, '..foo'), 'utf8')).toBe('foo\n');
    expect(await readFile(join(root, '.../x'), 'utf8')).toBe('x\n');
  });
});

describe('the config protects itself', () => {
  it.each([
    ['an update', planOf(put('.patchsmith.json', CONFIG, '{}'))],
    ['a delete', planOf(remove('.patchsmith.json', CONFIG))],
    ['a move onto it', planOf(remove('docs/a.md', 'a\n'), put('.patchsmith.json', CONFIG, 'a\n'))],
    ['a write into the state folder', planOf(put('.patchsmith/journal.json', null, '{}'))],
  ])('%s is DENIED naming the file', async (_name, plan) => {
    const root = await setup();
    const errors = await expectRefused(root, plan);
    expect(errors.some((e) => e.code === 'DENIED' && /\.patchsmith/.test(e.message))).toBe(true);
    expect(errors.find((e) => e.code === 'DENIED')!.message).toContain('unless the host allows it');
  });

  it('an add where there is no config yet is DENIED: it would set the rules of the next call', async () => {
    const root = await setup();
    await nodeFs.unlink(join(root, '.patchsmith.json'));
    const errors = await expectRefused(root, planOf(put('.patchsmith.json', null, '{"permissions": []}')));
    expect(errors).toMatchObject([{ code: 'DENIED', path: '.patchsmith.json' }]);
  });

  it('a write through a symlink to the config, or to the file the config is a symlink to, is DENIED', async () => {
    const root = await setup(async (r) => {
      await symlink('.patchsmith.json', join(r, 'cfg'));
    });
    await expectRefused(root, planOf(put('cfg', CONFIG, '{}')));
    const linked = await setup(async (r) => {
      await mkdir(join(r, 'policy'));
      await nodeFs.rename(join(r, '.patchsmith.json'), join(r, 'policy/rules.json'));
      await symlink('policy/rules.json', join(r, '.patchsmith.json'));
    });
    const errors = await expectRefused(linked, planOf(put('policy/rules.json', CONFIG, '{}')));
    expect(errors[0]!.message).toContain('policy/rules.json is the file .patchsmith.json leads to');
  });

  it('the host may allow config writes', async () => {
    const root = await setup();
    const plan = planOf(put('.patchsmith.json', CONFIG, '{}'));
    expect(await applyPlan(plan, { root, allowConfigWrites: true })).toEqual({ ok: true });
    expect(await readFile(join(root, '.patchsmith.json'), 'utf8')).toBe('{}');
  });
});

describe('caseInsensitiveAt', () => {
  it.runIf(process.platform === 'linux')('finds a Linux temp folder case-sensitive', async () => {
    const root = await setup();
    expect(await caseInsensitiveAt(nodeFs, root)).toBe(false);
  });
});

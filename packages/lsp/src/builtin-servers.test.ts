import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  findTsserver,
  languageIdFor,
  mergeServers,
  PYTHON_SERVER,
  serverForFile,
  TYPESCRIPT_SERVER,
} from './builtin-servers.js';
import { tempProject } from './test-support/helpers.js';

const TRUSTED = { projectServers: true };
const UNTRUSTED = { projectServers: false };
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('built-in servers', () => {
  const servers = mergeServers();

  it('route TypeScript and JavaScript files to typescript-language-server, Python to pyright', () => {
    for (const file of ['a.ts', 'a.tsx', 'a.js', 'a.jsx', 'a.mts', 'a.cts', 'A.TS']) {
      expect(serverForFile(servers, `/p/${file}`)?.name).toBe('typescript');
    }
    expect(serverForFile(servers, '/p/a.py')?.name).toBe('pyright');
    expect(serverForFile(servers, '/p/a.md')).toBeUndefined();
    expect(serverForFile(servers, '/p/Makefile')).toBeUndefined();
  });

  it('give each extension its LSP language id', () => {
    expect(languageIdFor(TYPESCRIPT_SERVER, '/a.tsx')).toBe('typescriptreact');
    expect(languageIdFor(TYPESCRIPT_SERVER, '/a.mjs')).toBe('mjs');
    expect(languageIdFor(PYTHON_SERVER, '/a.py')).toBe('python');
  });

  it('are replaced by a configured server of the same name, and can be left out', () => {
    const mine = { name: 'pyright', command: 'pylsp', extensions: ['.py'] };
    expect(mergeServers([mine]).find((s) => s.name === 'pyright')).toBe(mine);
    expect(mergeServers([mine], false)).toEqual([mine]);
  });

  it('let a later configured server claim an extension', () => {
    const deno = { name: 'deno', command: 'deno', args: ['lsp'], extensions: ['.ts'] };
    expect(serverForFile(mergeServers([deno]), '/a.ts')?.name).toBe('deno');
  });

  it("take the project's own typescript for tsserver only when the project is trusted", async () => {
    const root = await tempProject('tsserver', {
      'node_modules/typescript/lib/tsserver.js': '',
      'package.json': '{}',
    });
    dirs.push(root);
    const planted = path.join(root, 'node_modules/typescript/lib/tsserver.js');
    expect(findTsserver(root, TRUSTED)).toBe(planted);
    expect(findTsserver(root, UNTRUSTED)).toMatch(/typescript[/\\]lib[/\\]tsserver\.js$/);
    expect(findTsserver(root, UNTRUSTED)).not.toContain(root);
    expect(TYPESCRIPT_SERVER.lacks?.(root, UNTRUSTED)).toBeNull();
    const bare = await tempProject('bare');
    dirs.push(bare);
    expect(findTsserver(bare, TRUSTED)).toMatch(/typescript[/\\]lib[/\\]tsserver\.js$/);
    expect(findTsserver(bare, TRUSTED)).not.toContain(bare);
  });
});

import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { absolutePath, resolveServerCommand } from './resolve-command.js';
import { tempProject } from './test-support/helpers.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('resolveServerCommand', () => {
  it("runs an npm package's bin from this package's dependencies with this Node", () => {
    const resolved = resolveServerCommand(
      {
        name: 'ts',
        command: 'typescript-language-server',
        args: ['--stdio'],
        npmPackage: { name: 'typescript-language-server', bin: 'typescript-language-server' },
        extensions: ['.ts'],
      },
      '/',
    );
    expect(resolved.ok).toBe(true);
    if (!resolved.ok) return;
    expect(resolved.value.command).toBe(process.execPath);
    expect(resolved.value.args[0]).toMatch(/typescript-language-server[/\\]lib[/\\]cli\.mjs$/);
    expect(resolved.value.args.slice(1)).toEqual(['--stdio']);
  });

  it("runs a binary in the project's node_modules/.bin only when the project is trusted", async () => {
    const root = await tempProject('bin');
    dirs.push(root);
    const bin = path.join(root, 'node_modules/.bin/my-ls');
    await fs.mkdir(path.dirname(bin), { recursive: true });
    await fs.writeFile(bin, '#!/bin/sh\n', { mode: 0o755 });
    const server = { name: 'my', command: 'my-ls', extensions: ['.x'] };
    expect(resolveServerCommand(server, root, { projectServers: true })).toEqual({
      ok: true,
      value: { command: bin, args: [] },
    });
    const untrusted = resolveServerCommand(server, root);
    expect(untrusted.ok).toBe(false);
    if (untrusted.ok) return;
    expect(untrusted.searched.at(-1)).toBe(
      `${bin} (not run: the project's node_modules/.bin is the repository's code, run only when trusted)`,
    );
  });

  it("prefers the npm package beside patchsmith to the project's, trusted or not", async () => {
    const root = await tempProject('shadow');
    dirs.push(root);
    const bin = path.join(root, 'node_modules/.bin/typescript-language-server');
    await fs.mkdir(path.dirname(bin), { recursive: true });
    await fs.writeFile(bin, '#!/bin/sh\n', { mode: 0o755 });
    const server = {
      name: 'ts',
      command: 'typescript-language-server',
      npmPackage: { name: 'typescript-language-server', bin: 'typescript-language-server' },
      extensions: ['.ts'],
    };
    for (const projectServers of [false, true]) {
      const resolved = resolveServerCommand(server, root, { projectServers });
      expect(resolved.ok && resolved.value.args[0]).not.toContain(root);
    }
  });

  it('never looks a binary up in a relative PATH folder (it would be the project root)', async () => {
    const root = await tempProject('relative-path');
    dirs.push(root);
    await fs.writeFile(path.join(root, 'planted-ls'), '#!/bin/sh\n', { mode: 0o755 });
    const saved = { path: process.env.PATH, cwd: process.cwd() };
    process.chdir(root);
    process.env.PATH = `.${path.delimiter}${saved.path}`;
    try {
      expect(resolveServerCommand({ name: 'p', command: 'planted-ls', extensions: ['.x'] }, root).ok).toBe(
        false,
      );
      expect(absolutePath(`.${path.delimiter}/usr/bin${path.delimiter}bin`)).toBe('/usr/bin');
    } finally {
      process.env.PATH = saved.path;
      process.chdir(saved.cwd);
    }
  });

  it('finds a binary on PATH', () => {
    const resolved = resolveServerCommand({ name: 'sh', command: 'sh', extensions: ['.x'] }, '/');
    expect(resolved.ok && path.basename(resolved.value.command)).toBe('sh');
  });

  it('says where it looked when the binary is nowhere', () => {
    const resolved = resolveServerCommand(
      {
        name: 'nope',
        command: 'patchsmith-no-such-server',
        extensions: ['.x'],
        npmPackage: { name: 'no-such-pkg-xyz', bin: 'x' },
      },
      '/',
    );
    expect(resolved.ok).toBe(false);
    if (resolved.ok) return;
    expect(resolved.searched.join(' ')).toContain('no-such-pkg-xyz');
    expect(resolved.searched).toContain('PATH');
  });

  it('refuses an absolute path that is not an executable', () => {
    const resolved = resolveServerCommand(
      { name: 'abs', command: '/no/such/binary', extensions: ['.x'] },
      '/',
    );
    expect(resolved).toEqual({ ok: false, searched: ['/no/such/binary'] });
  });
});

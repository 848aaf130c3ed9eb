import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveServerCommand } from './resolve-command.js';
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

  it("finds a binary in the project's node_modules/.bin", async () => {
    const root = await tempProject('bin');
    dirs.push(root);
    const bin = path.join(root, 'node_modules/.bin/my-ls');
    await fs.mkdir(path.dirname(bin), { recursive: true });
    await fs.writeFile(bin, '#!/bin/sh\n', { mode: 0o755 });
    const resolved = resolveServerCommand(
      { name: 'my', command: 'my-ls', extensions: ['.x'] },
      path.join(root),
    );
    expect(resolved).toEqual({ ok: true, value: { command: bin, args: [] } });
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

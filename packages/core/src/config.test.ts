import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_FILE, formatEntryFor, loadConfig, MAX_CONFIG_BYTES } from './index.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'patchsmith-config-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('reads rules and defaults', async () => {
    await writeFile(
      join(root, CONFIG_FILE),
      JSON.stringify({ permissions: [{ match: 'a/**', action: 'deny' }] }),
    );
    expect(await loadConfig(root)).toEqual({
      ok: true,
      value: {
        policy: { rules: [{ match: 'a/**', action: 'deny' }], source: CONFIG_FILE },
        diagnostics: false,
      },
    });
  });

  it('names unknown keys, wrong types and wrong actions', async () => {
    await writeFile(
      join(root, CONFIG_FILE),
      JSON.stringify({ permission: [], diagnostics: 'yes', permissions: [{ match: 'x', action: 'block' }] }),
    );
    const loaded = await loadConfig(root);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    const { message } = loaded.errors[0]!;
    expect(message).toContain('unknown key "permission"');
    expect(message).toContain('diagnostics: expected boolean');
    expect(message).toContain('permissions.0.action: expected one of "allow", "deny", "ask"');
  });

  it('refuses a config that is a FIFO instead of blocking on it', async () => {
    execFileSync('mkfifo', [join(root, CONFIG_FILE)]);
    const loaded = await loadConfig(root);
    expect(loaded).toMatchObject({ ok: false, errors: [{ code: 'PARSE_ERROR', path: CONFIG_FILE }] });
    if (!loaded.ok) expect(loaded.errors[0]!.message).toContain('not a regular file');
  });

  it('refuses a config linked to a device that never ends', async () => {
    await symlink('/dev/zero', join(root, CONFIG_FILE));
    const loaded = await loadConfig(root);
    expect(loaded).toMatchObject({ ok: false, errors: [{ code: 'PARSE_ERROR' }] });
  });

  it('refuses a config larger than the limit', async () => {
    await writeFile(join(root, CONFIG_FILE), ' '.repeat(MAX_CONFIG_BYTES + 1));
    const loaded = await loadConfig(root);
    expect(loaded).toMatchObject({ ok: false, errors: [{ code: 'PARSE_ERROR' }] });
    if (!loaded.ok) expect(loaded.errors[0]!.message).toContain('larger than');
  });
});

describe('a hostile config', () => {
  it('refuses a rule whose braces would make too many patterns, naming it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'patchsmith-config-braces-'));
    try {
      const rules = [
        { match: '*.pem', action: 'deny' },
        { match: '{a,b}'.repeat(16), action: 'allow' },
      ];
      await writeFile(join(root, CONFIG_FILE), JSON.stringify({ permissions: rules }));
      const config = await loadConfig(root);
      expect(config.ok).toBe(false);
      if (!config.ok) expect(config.errors[0]!.message).toContain('permissions.1.match');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('cannot make a rule take long: forty stars in one segment decide a long name at once', async () => {
    const root = await mkdtemp(join(tmpdir(), 'patchsmith-config-stars-'));
    try {
      await writeFile(
        join(root, CONFIG_FILE),
        JSON.stringify({ permissions: [{ match: `${'*a'.repeat(40)}*b`, action: 'deny' }] }),
      );
      const config = await loadConfig(root);
      if (!config.ok) throw new Error(config.errors[0]!.message);
      const { decidePath } = await import('./index.js');
      expect(decidePath(`src/${'a'.repeat(4000)}`, config.value.policy).action).toBe('allow');
      expect(decidePath(`src/${'a'.repeat(4000)}b`, config.value.policy).action).toBe('deny');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('a root inside a repository', () => {
  it('keeps the rules of every config above it up to the top; a subfolder config cannot lift them', async () => {
    const top = await mkdtemp(join(tmpdir(), 'patchsmith-config-enclosing-'));
    try {
      execFileSync('git', ['init', '-q', top]);
      const { mkdir } = await import('node:fs/promises');
      await mkdir(join(top, 'app', 'web'), { recursive: true });
      await writeFile(
        join(top, CONFIG_FILE),
        JSON.stringify({
          permissions: [
            { match: '*.pem', action: 'deny' },
            { match: '/app/web/keys/**', action: 'deny' },
          ],
        }),
      );
      await writeFile(
        join(top, 'app', CONFIG_FILE),
        JSON.stringify({ permissions: [{ match: 'web/docs/**', action: 'ask' }] }),
      );
      // The subfolder's own config tries to allow everything.
      await writeFile(
        join(top, 'app', 'web', CONFIG_FILE),
        JSON.stringify({ permissions: [{ match: '**', action: 'allow' }] }),
      );
      const config = await loadConfig(join(top, 'app', 'web'));
      if (!config.ok) throw new Error(config.errors[0]!.message);
      const { decidePath, describeRule } = await import('./index.js');
      const { policy } = config.value;
      expect(policy.enclosing?.map((e) => [e.source, e.prefix])).toEqual([
        ['../.patchsmith.json', 'web'],
        ['../../.patchsmith.json', 'app/web'],
      ]);
      const pem = decidePath('src/k.pem', policy);
      expect(pem.action).toBe('deny');
      expect(describeRule(pem)).toContain('of ../../.patchsmith.json');
      expect(decidePath('keys/a.txt', policy).action).toBe('deny');
      expect(decidePath('docs/a.md', policy).action).toBe('ask');
      expect(decidePath('src/a.ts', policy).action).toBe('allow');
      // Outside a repository nothing above the root is read.
      const plain = await mkdtemp(join(tmpdir(), 'patchsmith-config-plain-'));
      try {
        const none = await loadConfig(plain);
        expect(none.ok && none.value.policy.enclosing).toBeFalsy();
      } finally {
        await rm(plain, { recursive: true, force: true });
      }
    } finally {
      await rm(top, { recursive: true, force: true });
    }
  });

  it('refuses a broken config above the root rather than skipping its rules', async () => {
    const top = await mkdtemp(join(tmpdir(), 'patchsmith-config-enclosing-bad-'));
    try {
      execFileSync('git', ['init', '-q', top]);
      const { mkdir } = await import('node:fs/promises');
      await mkdir(join(top, 'sub'));
      await writeFile(join(top, CONFIG_FILE), '{ not json');
      const config = await loadConfig(join(top, 'sub'));
      expect(config.ok).toBe(false);
      if (!config.ok)
        expect(config.errors[0]).toMatchObject({ code: 'PARSE_ERROR', path: '../.patchsmith.json' });
    } finally {
      await rm(top, { recursive: true, force: true });
    }
  });
});

describe('loadConfig in a process that reads it at every call', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sees every change of the rules at the next call, even one that keeps size and mtime', async () => {
    const config = join(root, CONFIG_FILE);
    // Padded to one size: the change shows neither in the size nor, put back, in the mtime.
    const rules = (action: string) => JSON.stringify({ permissions: [{ match: 'a/**', action }] }).padEnd(64);
    await writeFile(config, rules('deny'));
    const { atime, mtime } = await stat(config);
    // An hour on, the file is long unchanged: what was read of it is kept.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3_600_000);
    const actionOf = async () => {
      const loaded = await loadConfig(root);
      return loaded.ok ? loaded.value.policy.rules[0]?.action : loaded.errors[0]!.code;
    };
    expect(await actionOf()).toBe('deny');
    await new Promise((done) => setTimeout(done, 30));
    await writeFile(config, rules('allow'));
    await utimes(config, atime, mtime);
    expect(await actionOf()).toBe('allow');
    await writeFile(config, '{');
    expect(await actionOf()).toBe('PARSE_ERROR');
    await rm(config);
    expect(await actionOf()).toBeUndefined();
  });
});

describe('the format section', () => {
  it('reads glob -> command, a known formatter or false, in order; the first match decides', async () => {
    await writeFile(
      join(root, CONFIG_FILE),
      JSON.stringify({ format: { 'gen/**': false, '*.py': ['ruff', 'format', '-'], '*.ts': 'prettier' } }),
    );
    const loaded = await loadConfig(root);
    if (!loaded.ok) throw new Error(loaded.errors[0]!.message);
    const entries = loaded.value.format!;
    expect(formatEntryFor('gen/x.py', entries)).toBe(false);
    expect(formatEntryFor('src/a.py', entries)).toEqual(['ruff', 'format', '-']);
    expect(formatEntryFor('a.ts', entries)).toBe('prettier');
    expect(formatEntryFor('a.md', entries)).toBeUndefined();
  });

  it('refuses a command as one string (it would need a shell), an empty argv, an unknown formatter', async () => {
    for (const entry of ['ruff format -', [], 'black', true]) {
      await writeFile(join(root, CONFIG_FILE), JSON.stringify({ format: { '*.py': entry } }));
      const loaded = await loadConfig(root);
      expect(loaded.ok).toBe(false);
      if (!loaded.ok) expect(loaded.errors[0]!.message).toContain('format.*.py');
    }
  });

  it('a config without one has none', async () => {
    await writeFile(join(root, CONFIG_FILE), '{}');
    const loaded = await loadConfig(root);
    expect(loaded.ok && loaded.value.format).toBeUndefined();
  });
});

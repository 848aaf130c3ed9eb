import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_FILE, loadConfig, MAX_CONFIG_BYTES } from './index.js';

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

import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    await writeFile(join(root, CONFIG_FILE), JSON.stringify({ permissions: [{ match: 'a/**', action: 'deny' }] }));
    expect(await loadConfig(root)).toEqual({
      ok: true,
      value: { policy: { rules: [{ match: 'a/**', action: 'deny' }], source: CONFIG_FILE }, diagnostics: false },
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

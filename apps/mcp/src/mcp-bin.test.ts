/** The MCP server's own bin, `patchsmith-mcp`, as npm links it: the committed launcher over the build. */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'patchsmith-mcp-bin-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('patchsmith-mcp serves MCP on stdio and refuses a bad flag with the usage (exit 2)', async () => {
  const { bin } = JSON.parse(await readFile(join(PACKAGE_DIR, 'package.json'), 'utf8'));
  const launcher = join(PACKAGE_DIR, bin['patchsmith-mcp']);
  const list = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
  const served = spawnSync(process.execPath, [launcher, '--cwd', dir], {
    input: `${list}\n`,
    encoding: 'utf8',
  });
  expect(served.status).toBe(0);
  const reply = JSON.parse(served.stdout.trim().split('\n')[0] ?? '');
  expect(reply.id).toBe(7);
  expect(reply.result.tools.map((t: { name: string }) => t.name)).toContain('apply_patch');

  const bad = spawnSync(process.execPath, [launcher, '--nonsense'], { cwd: dir, encoding: 'utf8' });
  expect(bad.status).toBe(2);
  expect(bad.stdout).toBe('');
  expect(bad.stderr).toContain('usage: patchsmith mcp');
});

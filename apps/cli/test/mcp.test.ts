/**
 * Apps stand side by side: the CLI's bundle carries no MCP SDK, `patchsmith mcp` loads the server
 * from @patchsmith/mcp (an optional peer) only when asked, and without it says how to install it.
 */
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PATCHSMITH_BIN, runBin } from './bins.js';

const CLI_DIR = fileURLToPath(new URL('../', import.meta.url));
const BUNDLE_DIR = join(CLI_DIR, 'dist', 'bundle');

/** Strings only the MCP SDK (or an import of it) would put into a file. */
const MCP_SDK_MARKERS = ['@modelcontextprotocol', 'McpServer', 'StdioServerTransport'];

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});
const LIST_TOOLS = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
const INITIALIZED = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'patchsmith-cli-mcp-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('patchsmith mcp', () => {
  it('the built CLI bundle contains no MCP SDK', async () => {
    const files = (await readdir(BUNDLE_DIR)).filter((name) => name.endsWith('.cjs'));
    expect(files).toContain('patchsmith.cjs');
    for (const name of files) {
      const text = await readFile(join(BUNDLE_DIR, name), 'utf8');
      for (const marker of MCP_SDK_MARKERS)
        expect(text.includes(marker), `${name} contains ${marker}`).toBe(false);
    }
  });

  it('serves MCP on stdio when the server is installed (this workspace)', () => {
    const r = runBin(PATCHSMITH_BIN, ['mcp', '--cwd', dir], {
      cwd: dir,
      input: `${INITIALIZE}\n${INITIALIZED}\n${LIST_TOOLS}\n`,
    });
    expect(r.status).toBe(0);
    const replies = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(replies[0]).toMatchObject({ id: 1, result: { serverInfo: { name: 'patchsmith' } } });
    expect(replies[1].id).toBe(2);
    expect(replies[1].result.tools.map((t: { name: string }) => t.name)).toContain('apply_patch');
  });

  it('without @patchsmith/mcp installed, says how to install it (exit 2, nothing on stdout)', async () => {
    // The CLI as a user installs it without the optional peer: its bins and bundle, no node_modules.
    const installed = join(dir, 'cli');
    await cp(join(CLI_DIR, 'bin'), join(installed, 'bin'), { recursive: true });
    await cp(BUNDLE_DIR, join(installed, 'dist', 'bundle'), { recursive: true });
    const bin = join(installed, 'bin', 'patchsmith.cjs');
    const r = runBin(bin, ['mcp'], { cwd: dir, input: `${INITIALIZE}\n` });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: patchsmith mcp needs the MCP server, which is not installed (@patchsmith/mcp)\n' +
        '  install: npm install @patchsmith/mcp   (beside @patchsmith/cli)\n' +
        '  or run it alone: npx -p @patchsmith/mcp patchsmith-mcp [--cwd DIR]\n',
    );
    // The other commands need nothing optional.
    expect(runBin(bin, ['log', '--json'], { cwd: dir }).status).toBe(0);
  });
});

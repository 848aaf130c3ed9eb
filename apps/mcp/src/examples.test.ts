/**
 * The README's host snippets are the example files, and each example runs: the config entries
 * start this package's bin with their arguments and serve the tools; mcp-client.mjs runs whole.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { tempProject } from '../../../tooling/test-support/fixtures.js';

const packageFile = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const read = (path: string) => readFile(packageFile(path), 'utf8');

/** `command` and `args` of a config entry: the JSON one, or the TOML one (two `key = value` lines). */
async function entries(): Promise<{ file: string; command: string; args: string[] }[]> {
  const json = JSON.parse(await read('examples/mcp.json')).mcpServers.patchsmith;
  const toml = await read('examples/codex-config.toml');
  const value = (key: string) => JSON.parse(new RegExp(`^${key} = (.*)$`, 'm').exec(toml)![1]!);
  return [
    { file: 'examples/mcp.json', ...json },
    { file: 'examples/codex-config.toml', command: value('command'), args: value('args') },
  ];
}

describe('the README host snippets', () => {
  it('are copied from the example files', async () => {
    const readme = await read('README.md');
    for (const file of ['examples/mcp.json', 'examples/codex-config.toml']) {
      expect(readme, file).toContain((await read(file)).trimEnd());
    }
  });

  it('each config entry starts the server: npx @patchsmith/mcp with its arguments serves the tools', async () => {
    const project = await tempProject({ 'a.txt': 'one\n' });
    try {
      for (const { file, command, args } of await entries()) {
        expect(command, file).toBe('npx');
        const at = args.indexOf('@patchsmith/mcp');
        expect(at, file).toBeGreaterThanOrEqual(0);
        // What npx runs once the package is installed: its bin, with the arguments after the name.
        const rest = args.slice(at + 1).map((a) => (a === '/path/to/project' ? project.root : a));
        const client = new Client({ name: 'example', version: '1' });
        await client.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: [packageFile('bin/patchsmith-mcp.js'), ...rest],
          }),
        );
        try {
          const viewed = await client.callTool({
            name: 'view',
            arguments: { path: 'a.txt', view_range: null },
          });
          expect(viewed.isError, file).toBe(false);
        } finally {
          await client.close();
        }
      }
    } finally {
      await project.remove();
    }
  });

  it('mcp-client.mjs runs: views, previews, applies and undoes', () => {
    const out = execFileSync(process.execPath, [packageFile('examples/mcp-client.mjs')], {
      encoding: 'utf8',
    });
    expect(out).toContain('tools: apply_patch, edit, view, undo, log');
    expect(out).toContain('The patch applies cleanly (nothing was written).');
    expect(out).toContain('hello.py is now: "def greet():\\n    return \\"hello\\"\\n"');
    expect(out).toMatch(/Undone \S+; the files are back/);
  });
});

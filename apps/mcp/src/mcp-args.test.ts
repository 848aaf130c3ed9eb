import { syncFs } from '@patchsmith/tool';
import { describe, expect, it } from 'vitest';
import { tempProject } from '../../../tooling/test-support/fixtures.js';
import { MCP_USAGE, mcpMain, mcpOptionsFromArgs } from './mcp-args.js';

describe('patchsmith mcp arguments', () => {
  it('--format-code turns the formatter on; without it, it stays off', async () => {
    const project = await tempProject({});
    try {
      const on = await mcpOptionsFromArgs(['--cwd', project.root, '--format-code'], '/');
      const off = await mcpOptionsFromArgs(['--cwd', project.root], '/');
      expect(on.ok && on.options.formatCode).toBe(true);
      expect(off.ok && off.options.formatCode).toBeUndefined();
    } finally {
      await project.remove();
    }
  });

  it('reads the root, the flags, and a policy read from the root at every call', async () => {
    const project = await tempProject({
      '.patchsmith.json': '{"permissions": [{"match": "*.env", "action": "deny"}]}',
    });
    try {
      const parsed = await mcpOptionsFromArgs(
        ['--cwd', project.root, '--first-match', '--no-snapshot', '--max-message-bytes', '4096'],
        '/',
      );
      if (!parsed.ok) throw new Error(parsed.message);
      const { policy, fs, ...rest } = parsed.options;
      // The server process answers one call at a time: its fs calls need no thread pool.
      expect(fs).toBe(syncFs);
      expect(rest).toEqual({
        root: project.root,
        clientRoots: 'confine',
        version: (await import('../package.json', { with: { type: 'json' } })).default.version,
        firstMatch: true,
        snapshot: false,
        maxMessageBytes: 4096,
      });
      expect(parsed.notice).toBeUndefined();
      if (typeof policy !== 'function') throw new Error('expected a policy read at every call');
      expect(await policy(project.root)).toEqual({
        ok: true,
        value: { rules: [{ match: '*.env', action: 'deny' }], source: '.patchsmith.json' },
      });
      await project.write('.patchsmith.json', '{"permissions": []}');
      expect(await policy(project.root)).toEqual({
        ok: true,
        value: { rules: [], source: '.patchsmith.json' },
      });
    } finally {
      await project.remove();
    }
  });

  it('answers 2 with the usage for an unknown flag or a bad limit', async () => {
    const errors: string[] = [];
    const io = { cwd: '/', stderr: (t: string) => void errors.push(t) };
    expect(await mcpMain(['--verbose'], io)).toBe(2);
    expect(errors[0]).toContain(MCP_USAGE);
    for (const bad of ['0', '-5', '1.5', '10MiB', '']) {
      expect(await mcpOptionsFromArgs([`--max-message-bytes=${bad}`], '/')).toEqual({
        ok: false,
        message: `--max-message-bytes takes a positive whole number, not ${JSON.stringify(bad)}\n${MCP_USAGE}`,
      });
    }
  });

  it('refuses a --cwd that is missing or not a folder at start (exit 2), naming it', async () => {
    const project = await tempProject({ 'file.txt': 'x\n' });
    try {
      for (const [cwd, why] of [
        ['missing', 'does not exist'],
        ['file.txt', 'is not a folder'],
      ] as const) {
        const errors: string[] = [];
        const io = { cwd: project.root, stderr: (t: string) => void errors.push(t) };
        expect(await mcpMain(['--cwd', cwd], io)).toBe(2);
        expect(errors).toEqual([`--cwd "${cwd}": ${project.root}/${cwd} ${why}\n`]);
      }
    } finally {
      await project.remove();
    }
  });

  it("without --cwd, takes the client's first root as the project", async () => {
    const parsed = await mcpOptionsFromArgs([], '/');
    expect(parsed.ok && parsed.options.clientRoots).toBe('adopt');
  });

  it('serves with a broken config, saying so once on stderr', async () => {
    const project = await tempProject({ '.patchsmith.json': '{"permissions": "all"}' });
    try {
      const parsed = await mcpOptionsFromArgs(['--cwd', project.root], '/');
      if (!parsed.ok) throw new Error(parsed.message);
      expect(parsed.notice).toMatch(
        /^PARSE_ERROR: \.patchsmith\.json: permissions.*\nevery edit is refused until it is fixed\n$/,
      );
    } finally {
      await project.remove();
    }
  });
});

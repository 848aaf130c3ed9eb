import { describe, expect, it } from 'vitest';
import { MCP_USAGE, mcpMain, mcpOptionsFromArgs } from './mcp-args.js';
import { tempProject } from './test-support/fixtures.js';

describe('patchsmith mcp arguments', () => {
  it('reads the root, the flags and the root policy', async () => {
    const project = await tempProject({
      '.patchsmith.json': '{"permissions": [{"match": "*.env", "action": "deny"}]}',
    });
    try {
      const parsed = await mcpOptionsFromArgs(['--cwd', project.root, '--first-match', '--no-snapshot'], '/');
      expect(parsed).toEqual({
        ok: true,
        options: {
          root: project.root,
          firstMatch: true,
          snapshot: false,
          policy: { rules: [{ match: '*.env', action: 'deny' }], source: '.patchsmith.json' },
        },
      });
    } finally {
      await project.remove();
    }
  });

  it('answers 2 with the usage for an unknown flag, and with the problem for a broken config', async () => {
    const errors: string[] = [];
    const io = { cwd: '/', stderr: (t: string) => void errors.push(t) };
    expect(await mcpMain(['--verbose'], io)).toBe(2);
    expect(errors[0]).toContain(MCP_USAGE);

    const project = await tempProject({ '.patchsmith.json': '{"permissions": "all"}' });
    try {
      expect(await mcpMain(['--cwd', project.root], io)).toBe(2);
      expect(errors[1]).toMatch(/^PARSE_ERROR: \.patchsmith\.json: permissions/);
    } finally {
      await project.remove();
    }
  });
});

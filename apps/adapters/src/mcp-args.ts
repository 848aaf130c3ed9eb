import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, startDiagnostics } from '@patchsmith/tool';
import { type McpServerOptions, serveMcpStdio } from './mcp-server.js';

export const MCP_USAGE =
  'usage: patchsmith mcp [--cwd DIR] [--first-match] [--no-snapshot] [--diagnostics]\n';

/** Reads `patchsmith mcp` arguments and the root's permission policy into server options. */
export async function mcpOptionsFromArgs(
  args: string[],
  cwd = process.cwd(),
): Promise<{ ok: true; options: McpServerOptions } | { ok: false; message: string }> {
  let values: { cwd?: string; 'first-match'?: boolean; 'no-snapshot'?: boolean; diagnostics?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        cwd: { type: 'string' },
        'first-match': { type: 'boolean', default: false },
        'no-snapshot': { type: 'boolean', default: false },
        diagnostics: { type: 'boolean' },
      },
    }));
  } catch (error) {
    return { ok: false, message: `${(error as Error).message}\n${MCP_USAGE}` };
  }
  const root = resolve(cwd, values.cwd ?? '.');
  const config = await loadConfig(root);
  if (!config.ok) {
    return { ok: false, message: config.errors.map((e) => `${e.code}: ${e.message}\n`).join('') };
  }
  // A long-lived server keeps its language servers warm across edits.
  const diagnostics = (values.diagnostics ?? config.value.diagnostics) ? await startDiagnostics(root) : null;
  const options: McpServerOptions = {
    root,
    policy: config.value.policy,
    ...(diagnostics ? { diagnose: diagnostics.diagnose } : {}),
    firstMatch: values['first-match'] ?? false,
    snapshot: !values['no-snapshot'],
  };
  return { ok: true, options };
}

export interface McpMainIo {
  cwd: string;
  stderr: (text: string) => void;
}

const processIo = (): McpMainIo => ({
  cwd: process.cwd(),
  stderr: (text) => void process.stderr.write(text),
});

/**
 * `patchsmith mcp`: serves the tools on stdio. Resolves once the server is listening (the process
 * then lives until stdin closes); answers exit status 2 on a usage or config error.
 */
export async function mcpMain(args: string[], io: McpMainIo = processIo()): Promise<number> {
  const parsed = await mcpOptionsFromArgs(args, io.cwd);
  if (!parsed.ok) {
    io.stderr(parsed.message);
    return 2;
  }
  await serveMcpStdio(parsed.options);
  return 0;
}

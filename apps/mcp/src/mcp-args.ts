import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, loadPolicy, startDiagnostics, syncFs } from '@patchsmith/tool';
import { type McpServerOptions, serveMcpStdio } from './mcp-server.js';

/** This package's version, which the server reports to its clients. */
const VERSION: string = createRequire(import.meta.url)('../package.json').version;

export const MCP_USAGE =
  'usage: patchsmith mcp [--cwd DIR] [--first-match] [--no-snapshot] [--diagnostics] [--format-code] [--max-message-bytes N]\n';

/** Server options from the arguments, and a notice for the operator (a config broken at start). */
export type McpArgs =
  | { ok: true; options: McpServerOptions; notice?: string }
  | { ok: false; message: string };

/** A whole number of bytes, at least 1. */
function parseByteCount(text: string): number | null {
  if (!/^[1-9][0-9]*$/.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}

/** Why the root cannot serve (it is missing or not a folder), or null when it is a folder. */
async function notAFolder(root: string): Promise<string | null> {
  try {
    return (await stat(root)).isDirectory() ? null : `${root} is not a folder`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${root} does not exist` : `${root} cannot be read (${code ?? 'error'})`;
  }
}

/**
 * Reads `patchsmith mcp` arguments into server options. The root's policy is read again at every
 * call (an edit of `.patchsmith.json` counts at once); a config broken at start is only a notice,
 * and each call reports it as its error until it is fixed.
 */
export async function mcpOptionsFromArgs(args: string[], cwd = process.cwd()): Promise<McpArgs> {
  let values: {
    cwd?: string;
    'first-match'?: boolean;
    'no-snapshot'?: boolean;
    diagnostics?: boolean;
    'format-code'?: boolean;
    'max-message-bytes'?: string;
  };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        cwd: { type: 'string' },
        'first-match': { type: 'boolean', default: false },
        'no-snapshot': { type: 'boolean', default: false },
        diagnostics: { type: 'boolean' },
        'format-code': { type: 'boolean', default: false },
        'max-message-bytes': { type: 'string' },
      },
    }));
  } catch (error) {
    return { ok: false, message: `${(error as Error).message}\n${MCP_USAGE}` };
  }
  const limit = values['max-message-bytes'];
  const maxMessageBytes = limit === undefined ? undefined : parseByteCount(limit);
  if (maxMessageBytes === null) {
    return {
      ok: false,
      message: `--max-message-bytes takes a positive whole number, not ${JSON.stringify(limit)}\n${MCP_USAGE}`,
    };
  }
  const root = resolve(cwd, values.cwd ?? '.');
  const notFolder = await notAFolder(root);
  if (notFolder !== null)
    return { ok: false, message: `--cwd ${JSON.stringify(values.cwd ?? '.')}: ${notFolder}\n` };
  const config = await loadConfig(root);
  // A long-lived server keeps its language servers warm across edits.
  const wantsDiagnostics = values.diagnostics ?? (config.ok && config.value.diagnostics);
  const diagnostics = wantsDiagnostics ? await startDiagnostics(root) : null;
  const options: McpServerOptions = {
    root,
    version: VERSION,
    policy: loadPolicy,
    // Without --cwd, a client that lists its roots says where the project is (its first root).
    clientRoots: values.cwd === undefined ? 'adopt' : 'confine',
    ...(diagnostics ? { diagnose: diagnostics.diagnose } : {}),
    firstMatch: values['first-match'] ?? false,
    snapshot: !values['no-snapshot'],
    // The project's formatter is the repository's code: run only when the operator says so.
    ...(values['format-code'] ? { formatCode: true } : {}),
    ...(maxMessageBytes !== undefined ? { maxMessageBytes } : {}),
    // This process serves one client, one call at a time (the tool queue), so nothing waits behind
    // a synchronous stat; a thread-pool round trip per fs call cost a one-line edit 3 of its 7 ms.
    // fsync stays on the thread pool (see syncFs).
    fs: syncFs,
  };
  if (config.ok) return { ok: true, options };
  const problems = config.errors.map((e) => `${e.code}: ${e.message}\n`).join('');
  return { ok: true, options, notice: `${problems}every edit is refused until it is fixed\n` };
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
 * then lives until stdin closes); answers exit status 2 on a usage error.
 */
export async function mcpMain(args: string[], io: McpMainIo = processIo()): Promise<number> {
  const parsed = await mcpOptionsFromArgs(args, io.cwd);
  if (!parsed.ok) {
    io.stderr(parsed.message);
    return 2;
  }
  if (parsed.notice !== undefined) io.stderr(parsed.notice);
  await serveMcpStdio(parsed.options);
  return 0;
}

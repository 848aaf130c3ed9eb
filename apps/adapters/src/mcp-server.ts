import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type AskPermission,
  applyPatchInputSchema,
  createPermissionGate,
  type EditReport,
  editToolInputSchema,
  formatForModel,
  formatUndo,
  type PermissionPolicy,
  type PermissionPrompt,
  runEdit,
  undoInputSchema,
  undoLast,
} from '@patchsmith/tool';
import { oneAtATime } from './one-at-a-time.js';
import type { AdapterOptions } from './options.js';

export interface McpServerOptions extends AdapterOptions {
  /**
   * Permission rules (see `loadPolicy`). Paths whose rule says `ask` are put to the user through
   * MCP elicitation when the client supports it, and refused (with how to allow them) otherwise.
   * Ignored when `ask` is given.
   */
  policy?: PermissionPolicy;
  /** The name and version the server reports. */
  name?: string;
  version?: string;
}

function toolResult(text: string, ok: boolean): CallToolResult {
  return { content: [{ type: 'text', text }], isError: !ok };
}

function reportResult(report: EditReport): CallToolResult {
  return toolResult(formatForModel(report), report.ok);
}

/** Asks the person at the MCP client, through elicitation, whether the paths may be written. */
function elicitationPrompt(server: McpServer): PermissionPrompt {
  return async ({ paths }) => {
    const result = await server.server.elicitInput({
      message: `patchsmith wants to write ${paths.map((p) => p.path).join(', ')}. Allow it?`,
      requestedSchema: {
        type: 'object',
        properties: {
          answer: {
            type: 'string',
            enum: ['yes', 'no', 'always'],
            description: 'always: allow these paths for this session',
          },
        },
        required: ['answer'],
      },
    });
    const answer = result.action === 'accept' ? result.content?.answer : 'no';
    return answer === 'yes' || answer === 'always' ? answer : 'no';
  };
}

/** Whether the connected client can put a question to its user. */
function canElicit(server: McpServer): boolean {
  return server.server.getClientCapabilities()?.elicitation !== undefined;
}

/**
 * The policy's gate. The client's capabilities are known only once it connects, so the choice is
 * made per call: with elicitation, `ask` paths go to the user; without, they are refused with a
 * message saying how to allow them.
 */
function policyGate(server: McpServer, policy: PermissionPolicy): AskPermission {
  const asking = createPermissionGate({ policy, prompt: elicitationPrompt(server) });
  const refusing = createPermissionGate({ policy });
  return (plan) => (canElicit(server) ? asking(plan) : refusing(plan));
}

/**
 * An MCP server (not yet connected) with the tools `apply_patch` (a patch text), `edit`
 * (str_replace commands) and `undo`. Each call is one `runEdit` / `undoLast`; the result is the
 * model-facing text, with `isError: true` when the edit was rejected. Connect it to a transport,
 * e.g. `serveMcpStdio`.
 */
export function createMcpServer(options: McpServerOptions = {}): McpServer {
  const { policy, name, version, ...adapterOptions } = options;
  const server = new McpServer({ name: name ?? 'patchsmith', version: version ?? '0.0.0' });
  const ask = adapterOptions.ask ?? (policy === undefined ? undefined : policyGate(server, policy));
  const runOptions = { ...adapterOptions, ask };
  // A client may send several calls without waiting; each edit plans against the previous one's result.
  const queue = oneAtATime();

  server.registerTool(
    'apply_patch',
    {
      title: 'Apply a patch',
      description:
        'Apply a patch to the project, all or nothing. Codex format preferred (*** Begin Patch ... *** End Patch); ' +
        'unified diffs and SEARCH/REPLACE blocks are accepted too. Context that drifted slightly (whitespace, ' +
        'indentation, look-alike characters) still matches; failures show the nearest region of the file.',
      inputSchema: applyPatchInputSchema,
    },
    ({ patch, format }) =>
      queue(async () =>
        reportResult(
          await runEdit({ kind: 'patch', text: patch, ...(format ? { format } : {}) }, runOptions),
        ),
      ),
  );

  server.registerTool(
    'edit',
    {
      title: 'Edit files',
      description:
        'Edit files with str_replace (old_str must identify one place), create (whole file) and insert ' +
        '(after a line) commands, applied in order, all or nothing.',
      inputSchema: editToolInputSchema,
    },
    ({ edits }) => queue(async () => reportResult(await runEdit({ kind: 'edits', edits }, runOptions))),
  );

  server.registerTool(
    'undo',
    {
      title: 'Undo an edit',
      description:
        'Restore the files of the latest apply_patch or edit (or of the snapshot id given). Refuses when ' +
        'the files changed since, unless force.',
      inputSchema: undoInputSchema,
    },
    ({ id, force }) =>
      queue(async () => {
        const { root, lockTimeoutMs, ask: gate } = runOptions;
        // The rules of .patchsmith.json as they are now (read by undoLast), and the host's gate too.
        const report = await undoLast({ root, id, force, lockTimeoutMs, ...(gate ? { ask: gate } : {}) });
        return toolResult(formatUndo(report), report.ok);
      }),
  );
  return server;
}

/** Serves `createMcpServer(options)` over stdin/stdout until the client disconnects. */
export async function serveMcpStdio(options: McpServerOptions = {}): Promise<McpServer> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const server = createMcpServer(options);
  await server.connect(new StdioServerTransport());
  return server;
}

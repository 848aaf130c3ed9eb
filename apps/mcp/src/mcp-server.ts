import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type EditError, PatchsmithError, type Result } from '@patchsmith/core';
import {
  type AskPermission,
  applyPatchInputSchema,
  createPermissionGate,
  type EditInput,
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
import { oneAtATime } from '@patchsmith/tool';
import type { AdapterOptions } from './options.js';
import { StdioLineTransport } from './stdio-line-transport.js';

/** Reads the permission policy again, e.g. `() => loadPolicy(root)`; a failure is that call's error. */
export type PolicySource = () => Promise<Result<PermissionPolicy>>;

export interface McpServerOptions extends AdapterOptions {
  /**
   * Permission rules (see `loadPolicy`), or where to read them at every call: then an edit of
   * `.patchsmith.json` counts from the next call, and a broken one is that call's error
   * (`isError: true`), never the server's end. Paths whose rule says `ask` are put to the user
   * through MCP elicitation when the client supports it, and refused (with how to allow them)
   * otherwise. Ignored when `ask` is given.
   */
  policy?: PermissionPolicy | PolicySource;
  /** The name and version the server reports. */
  name?: string;
  version?: string;
  /** The largest message `serveMcpStdio` reads, in bytes (default 10 MiB); a larger one is answered with an error. */
  maxMessageBytes?: number;
}

function toolResult(text: string, ok: boolean): CallToolResult {
  return { content: [{ type: 'text', text }], isError: !ok };
}

function reportResult(report: EditReport): CallToolResult {
  return toolResult(formatForModel(report), report.ok);
}

/** Errors found before any edit was planned (a broken config), as a rejected edit reads. */
function refusedResult(errors: EditError[]): CallToolResult {
  return reportResult({ ok: false, dryRun: false, files: [], diagnostics: [], snapshot: null, errors });
}

/**
 * A call that threw (a broken journal's `STATE_INVALID`, an I/O failure) is that call's tool
 * error with its code; the server goes on serving.
 */
function thrownResult(error: unknown): CallToolResult {
  if (error instanceof PatchsmithError) return toolResult(`${error.code}: ${error.message}`, false);
  return toolResult(`IO_ERROR: ${error instanceof Error ? error.message : String(error)}`, false);
}

/** `oneAtATime` for tool calls, each of which answers a result even when it throws. */
function toolQueue(): (task: () => Promise<CallToolResult>) => Promise<CallToolResult> {
  const queue = oneAtATime();
  return (task) => queue(() => task().catch(thrownResult));
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
 * The gate of each call: none, the one given, the fixed policy's, or the one of the policy read
 * now. A policy read again keeps its gate while its rules stay the same, so an `always` answer
 * lasts the session.
 */
function gateSource(
  server: McpServer,
  policy: McpServerOptions['policy'],
  ask: AskPermission | undefined,
): () => Promise<Result<AskPermission | undefined>> {
  if (ask !== undefined || policy === undefined) return async () => ({ ok: true, value: ask });
  if (typeof policy !== 'function') {
    const gate = policyGate(server, policy);
    return async () => ({ ok: true, value: gate });
  }
  let last: { rules: string; gate: AskPermission } | undefined;
  return async () => {
    const read = await policy();
    if (!read.ok) return read;
    const rules = JSON.stringify(read.value);
    if (last?.rules !== rules) last = { rules, gate: policyGate(server, read.value) };
    return { ok: true, value: last.gate };
  };
}

/**
 * An MCP server (not yet connected) with the tools `apply_patch` (a patch text), `edit`
 * (str_replace commands) and `undo`. Each call is one `runEdit` / `undoLast`; the result is the
 * model-facing text, with `isError: true` when the edit was rejected. Connect it to a transport,
 * e.g. `serveMcpStdio`.
 */
export function createMcpServer(options: McpServerOptions = {}): McpServer {
  const { policy, name, version, maxMessageBytes: _, ...adapterOptions } = options;
  const server = new McpServer({ name: name ?? 'patchsmith', version: version ?? '0.0.0' });
  const gateOfCall = gateSource(server, policy, adapterOptions.ask);
  const runOptions = { ...adapterOptions };
  // A client may send several calls without waiting; each edit plans against the previous one's result.
  const queue = toolQueue();
  const edit = (input: EditInput) =>
    queue(async () => {
      const gate = await gateOfCall();
      if (!gate.ok) return refusedResult(gate.errors);
      return reportResult(await runEdit(input, { ...runOptions, ask: gate.value }));
    });

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
    ({ patch, format }) => edit({ kind: 'patch', text: patch, ...(format ? { format } : {}) }),
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
    ({ edits }) => edit({ kind: 'edits', edits }),
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

/**
 * Serves `createMcpServer(options)` over stdin/stdout until the client disconnects. Every request
 * is answered, a malformed or oversized one with a JSON-RPC error (see `StdioLineTransport`).
 */
export async function serveMcpStdio(options: McpServerOptions = {}): Promise<McpServer> {
  const server = createMcpServer(options);
  const { maxMessageBytes } = options;
  await server.connect(
    new StdioLineTransport(
      process.stdin,
      process.stdout,
      maxMessageBytes !== undefined ? { maxMessageBytes } : {},
    ),
  );
  return server;
}

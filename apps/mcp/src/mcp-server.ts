import { resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import {
  applyPatchInputSchema,
  type EditInput,
  editToolInputSchema,
  formatUndo,
  oneAtATime,
  type PermissionPolicy,
  type RunEditOptions,
  runEdit,
  toolEdits,
  undoInputSchema,
  undoLast,
  viewFile,
  viewInputSchema,
} from '@patchsmith/tool';
import { z } from 'zod';
import { type CallExtra, progressNotifier } from './call-progress.js';
import { type ClientRoots, callRoot } from './call-root.js';
import { gateSource, type PolicySource } from './gate.js';
import { editReportSchema, logResultSchema, undoReportSchema, viewResultSchema } from './output-schemas.js';
import { refusedResult, reportDocument, reportResult, thrownResult, toolResult } from './results.js';
import { snapshotLog } from './snapshot-log.js';
import { StdioLineTransport } from './stdio-line-transport.js';

/** The default longest text `view` returns (about 10k tokens); a longer file is cut with a note. */
export const DEFAULT_MAX_VIEW_CHARACTERS = 40_000;

export interface McpServerOptions extends Omit<RunEditOptions, 'dryRun' | 'signal' | 'onProgress'> {
  /**
   * Permission rules (see `loadPolicy`), or where to read them at every call (given the call's
   * root): then an edit of `.patchsmith.json` counts from the next call, and a broken one is that
   * call's error (`isError: true`), never the server's end. Paths whose rule says `ask` are put to
   * the user through MCP elicitation, with the diff, when the client supports it, and refused
   * (with how to allow them) otherwise. Ignored when `ask` is given.
   */
  policy?: PermissionPolicy | PolicySource;
  /** What the client's MCP roots do when it offers them (default `confine`; see `ClientRoots`). */
  clientRoots?: ClientRoots;
  /** The longest text `view` returns (default `DEFAULT_MAX_VIEW_CHARACTERS`). */
  maxViewCharacters?: number;
  /** The name and version the server reports. */
  name?: string;
  version?: string;
  /** The largest message `serveMcpStdio` reads, in bytes (default 10 MiB); a larger one is answered with an error. */
  maxMessageBytes?: number;
}

const preview = z
  .boolean()
  .nullable()
  .describe('true: return the diff the edit would make and write nothing; null or false: apply it.');

const applyPatchSchema = applyPatchInputSchema.extend({ preview });
const editSchema = editToolInputSchema.extend({ preview });
const logSchema = z.strictObject({
  limit: z.number().int().min(1).nullable().describe('At most this many snapshots, newest first; null: all.'),
});

/** The hints of every tool: they act on the project's files only, never on the world outside. */
const WRITES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};
const READS: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** `oneAtATime` for tool calls, each of which answers a result even when it throws. */
function toolQueue(): (task: () => Promise<CallToolResult>) => Promise<CallToolResult> {
  const queue = oneAtATime();
  return (task) => queue(() => task().catch(thrownResult));
}

/**
 * An MCP server (not yet connected) with the tools `apply_patch` (a patch text), `edit`
 * (str_replace commands), `view` (a file's numbered lines or a folder), `undo` and `log`. Each
 * write is one `runEdit` / `undoLast`, cancelled by the call's `notifications/cancelled` up to its
 * first write; the result is the model-facing text with the JSON report as `structuredContent`,
 * `isError: true` when the edit was rejected. Connect it to a transport, e.g. `serveMcpStdio`.
 */
export function createMcpServer(options: McpServerOptions = {}): McpServer {
  const {
    policy,
    name,
    version,
    clientRoots,
    maxViewCharacters,
    maxMessageBytes: _,
    ...runOptions
  } = options;
  const serverRoot = resolve(runOptions.root ?? process.cwd());
  const server = new McpServer({ name: name ?? 'patchsmith', version: version ?? '0.0.0' });
  const gateOfCall = gateSource(server, policy, runOptions.ask);
  // A client may send several calls without waiting; each edit plans against the previous one's result.
  const queue = toolQueue();
  /** Runs the task with the call's root, or refuses the call when the client's roots exclude it. */
  const inRoot = (task: (root: string) => Promise<CallToolResult>) =>
    queue(async () => {
      const root = await callRoot(server, serverRoot, clientRoots ?? 'confine');
      return root.ok ? task(root.value) : refusedResult(root.errors);
    });
  const edit = (input: EditInput, isPreview: boolean | null, extra: CallExtra) =>
    inRoot(async (root) => {
      const call = { ...runOptions, root, signal: extra.signal };
      if (isPreview === true) return reportResult(await runEdit(input, { ...call, dryRun: true }), true);
      const gate = await gateOfCall(root);
      if (!gate.ok) return refusedResult(gate.errors);
      const onProgress = progressNotifier(extra);
      return reportResult(
        await runEdit(input, { ...call, ask: gate.value, ...(onProgress ? { onProgress } : {}) }),
      );
    });

  server.registerTool(
    'apply_patch',
    {
      title: 'Apply a patch',
      description:
        'Apply a patch to the project, all or nothing. Codex format preferred (*** Begin Patch ... *** End Patch); ' +
        'unified diffs and SEARCH/REPLACE blocks are accepted too. Context that drifted slightly (whitespace, ' +
        'indentation, look-alike characters) still matches; failures show the nearest region of the file. ' +
        'preview: true returns the diff and writes nothing.',
      inputSchema: applyPatchSchema,
      outputSchema: editReportSchema,
      annotations: { title: 'Apply a patch', ...WRITES },
    },
    ({ patch, format, preview: isPreview }, extra) =>
      edit({ kind: 'patch', text: patch, ...(format ? { format } : {}) }, isPreview, extra),
  );

  server.registerTool(
    'edit',
    {
      title: 'Edit files',
      description:
        'Edit files with str_replace (old_str must identify one place), create (a new file) and insert ' +
        '(after a line, as view numbers them) commands, applied in order, all or nothing. preview: true ' +
        'returns the diff and writes nothing.',
      inputSchema: editSchema,
      outputSchema: editReportSchema,
      annotations: { title: 'Edit files', ...WRITES },
    },
    (input, extra) => edit({ kind: 'edits', edits: toolEdits(input) }, input.preview, extra),
  );

  server.registerTool(
    'view',
    {
      title: 'View a file or folder',
      description:
        'Read a file with numbered lines (all of it, or view_range [start, end], end -1 for the end), or list ' +
        'a folder two levels deep. A long file is cut with a note saying how to see the rest. Read a file ' +
        'before editing it.',
      inputSchema: viewInputSchema,
      outputSchema: viewResultSchema,
      annotations: { title: 'View a file or folder', ...READS },
    },
    ({ path, view_range }) =>
      inRoot(async (root) => {
        const viewed = await viewFile({
          root,
          path,
          fs: runOptions.fs,
          ...(view_range !== null ? { view_range } : {}),
          maxCharacters: maxViewCharacters ?? DEFAULT_MAX_VIEW_CHARACTERS,
        });
        if (viewed.ok)
          return toolResult(viewed.text, true, { ...viewed, truncated: viewed.truncated ?? false });
        return toolResult(`${viewed.code}: ${viewed.message}`, false, viewed);
      }),
  );

  server.registerTool(
    'undo',
    {
      title: 'Undo an edit',
      description:
        'Restore the files of the latest apply_patch or edit (or of the snapshot id given, see log). Refuses ' +
        'when the files changed since, unless force.',
      inputSchema: undoInputSchema,
      outputSchema: undoReportSchema,
      annotations: { title: 'Undo an edit', ...WRITES },
    },
    ({ id, force }) =>
      inRoot(async (root) => {
        const gate = await gateOfCall(root);
        if (!gate.ok) return refusedResult(gate.errors);
        const { lockTimeoutMs, allowConfigWrites } = runOptions;
        // The rules of .patchsmith.json as they are now (read by undoLast), and the call's gate.
        const report = await undoLast({
          root,
          ...(id !== null ? { id } : {}),
          force: force ?? false,
          lockTimeoutMs,
          allowConfigWrites,
          ...(gate.value ? { ask: gate.value } : {}),
        });
        return toolResult(formatUndo(report), report.ok, {
          ...reportDocument(report),
          undone: report.undone,
        });
      }),
  );

  server.registerTool(
    'log',
    {
      title: 'List the edits that can be undone',
      description: 'List the snapshots of the edits, newest first: their ids (for undo), times and files.',
      inputSchema: logSchema,
      outputSchema: logResultSchema,
      annotations: { title: 'List the edits', ...READS },
    },
    ({ limit }) =>
      inRoot(async (root) => {
        const { text, snapshots } = await snapshotLog(root, limit);
        return toolResult(text, true, { snapshots });
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

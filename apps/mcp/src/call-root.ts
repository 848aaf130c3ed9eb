import { realpath } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isInsidePath, type Result } from '@patchsmith/core';

/**
 * What the client's MCP roots do, when it offers them: `confine` refuses a call whose root lies
 * outside every one of them; `adopt` (a server started without `--cwd`) takes the first as the root.
 */
export type ClientRoots = 'confine' | 'adopt';

/** How long a client has to list its roots before the call fails. */
const LIST_ROOTS_TIMEOUT_MS = 10_000;

/** The client's `file://` roots as real folders; a root that does not exist is left out. */
async function clientFolders(server: McpServer): Promise<string[]> {
  const { roots } = await server.server.listRoots(undefined, { timeout: LIST_ROOTS_TIMEOUT_MS });
  const folders: string[] = [];
  for (const root of roots) {
    if (!root.uri.startsWith('file://')) continue;
    try {
      folders.push(await realpath(fileURLToPath(root.uri)));
    } catch {
      // A root that names no folder allows nothing.
    }
  }
  return folders;
}

/** Whether the connected client offers roots. */
function offersRoots(server: McpServer): boolean {
  return server.server.getClientCapabilities()?.roots !== undefined;
}

function outsideRoots(message: string): Result<string> {
  return { ok: false, errors: [{ code: 'PATH_OUTSIDE_ROOT', message }] };
}

/**
 * The root of one call: the server's, unless the client offers roots; then they are the allowed
 * roots (asked at every call, so a change counts at once). Paths in the model's calls stay
 * relative to this one root.
 */
export async function callRoot(server: McpServer, root: string, mode: ClientRoots): Promise<Result<string>> {
  if (!offersRoots(server)) return { ok: true, value: root };
  const folders = await clientFolders(server);
  if (folders.length === 0) {
    return outsideRoots('the client lists no folder among its roots, so nothing may be read or written');
  }
  if (mode === 'adopt') return { ok: true, value: folders[0]! };
  const real = await realpath(root).catch(() => root);
  if (folders.some((folder) => isInsidePath(real, folder))) return { ok: true, value: root };
  return outsideRoots(
    `the server's root ${root} is outside the client's roots (${folders.join(', ')}); start it with --cwd inside one of them`,
  );
}

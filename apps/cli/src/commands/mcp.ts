import type { Io } from '../io.js';

/** `patchsmith mcp`: the MCP server on stdio (lives until stdin closes). */
export async function mcpCommand(args: string[], io: Io): Promise<number> {
  const { mcpMain } = await import('@patchsmith/adapters');
  return mcpMain(args, { cwd: io.cwd, stderr: io.stderr });
}

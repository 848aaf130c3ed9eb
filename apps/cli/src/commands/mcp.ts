import { importOptional } from '../import-optional.js';
import { EXIT_USAGE, type Io } from '../io.js';

/** The package that holds the MCP server: an optional peer of the CLI, so the CLI installs no agent SDK. */
export const MCP_SERVER_PACKAGE = '@patchsmith/mcp';

/** Node's error for an import of a package that is not installed, naming that package. */
function isNotInstalled(error: unknown, name: string): boolean {
  return (
    (error as NodeJS.ErrnoException | undefined)?.code === 'ERR_MODULE_NOT_FOUND' &&
    String((error as Error).message).includes(`'${name}'`)
  );
}

/** What to do when the server is not installed: how to install it, or run it on its own. */
export const MCP_NOT_INSTALLED =
  `error: patchsmith mcp needs the MCP server, which is not installed (${MCP_SERVER_PACKAGE})\n` +
  `  install: npm install ${MCP_SERVER_PACKAGE}   (beside @patchsmith/cli)\n` +
  `  or run it alone: npx -p ${MCP_SERVER_PACKAGE} patchsmith-mcp [--cwd DIR]\n`;

/** The part of the server package this command calls. */
interface McpServerPackage {
  mcpMain(args: string[], io: { cwd: string; stderr: (text: string) => void }): Promise<number>;
}

/** `patchsmith mcp`: the MCP server on stdio (lives until stdin closes), loaded only when asked for. */
export async function mcpCommand(args: string[], io: Io): Promise<number> {
  // Loaded only here, and never named in a static import or type: the CLI stands beside the MCP server.
  const server = await (importOptional(MCP_SERVER_PACKAGE) as Promise<McpServerPackage>).catch(
    (error: unknown) => {
      if (isNotInstalled(error, MCP_SERVER_PACKAGE)) return null;
      throw error;
    },
  );
  if (server === null) {
    io.stderr(MCP_NOT_INSTALLED);
    return EXIT_USAGE;
  }
  return server.mcpMain(args, { cwd: io.cwd, stderr: io.stderr });
}

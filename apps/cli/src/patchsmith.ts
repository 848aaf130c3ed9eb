import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { EXIT_USAGE, type Io, processIo, UsageError } from './io.js';
import { runCommand } from './run-command.js';

export const USAGE = `usage:
  patchsmith apply [FILE|-] [--cwd DIR] [--format auto|codex|unified|search-replace|whole-file|str_replace]
                   [--check] [--json] [--first-match] [--confirm | --yes] [--diagnostics]
                   [--no-snapshot] [--diff] [--partial] [--base-from PATH=FILE ...] [--allow-elision]
  patchsmith check [FILE|-] [...apply options]   (same as apply --check)
  patchsmith diff [FILE|-] [--cwd DIR] [--format ...] [--first-match] [--allow-elision]   (the change as a unified diff)
  patchsmith undo [ID] [--force] [--yes] [--cwd DIR]
  patchsmith log [--cwd DIR] [--json]
  patchsmith recover [--discard] [--cwd DIR]   (--discard: drop an interrupted apply, restoring nothing)
  patchsmith mcp [--cwd DIR] [--first-match] [--no-snapshot] [--diagnostics] [--max-message-bytes N]   (MCP server on stdio)
`;

type Command = (args: string[], io: Io) => Promise<number>;

// Each command is imported only when called, so `apply` never loads what `undo` needs.
const COMMANDS: Record<string, () => Promise<Command>> = {
  apply: async () => (await import('./commands/apply.js')).applyCommand,
  check: async () => {
    const { applyCommand } = await import('./commands/apply.js');
    return (args, io) => applyCommand(args, io, { checkOnly: true });
  },
  diff: async () => (await import('./commands/diff.js')).diffCommand,
  undo: async () => (await import('./commands/undo.js')).undoCommand,
  log: async () => (await import('./commands/log.js')).logCommand,
  recover: async () => (await import('./commands/recover.js')).recoverCommand,
  mcp: async () => (await import('./commands/mcp.js')).mcpCommand,
};

/** The values given to `--cwd` (`--cwd DIR` or `--cwd=DIR`), up to a `--` that ends the options. */
function cwdValues(args: string[]): string[] {
  const values: string[] = [];
  for (let index = 0; index < args.length && args[index] !== '--'; index++) {
    const arg = args[index]!;
    if (arg.startsWith('--cwd=')) values.push(arg.slice('--cwd='.length));
    else if (arg === '--cwd' && args[index + 1] !== undefined) values.push(args[++index]!);
  }
  return values;
}

/** A `--cwd` that is not an existing folder is a mistake in the command line (exit 2), for every command. */
async function checkCwd(args: string[], io: Io): Promise<void> {
  for (const dir of cwdValues(args)) {
    const stats = await stat(resolve(io.cwd, dir)).catch(() => null);
    if (stats === null) throw new UsageError(`--cwd ${dir}: no such folder`);
    if (!stats.isDirectory()) throw new UsageError(`--cwd ${dir}: not a folder`);
  }
}

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout)(USAGE);
    return name === undefined ? EXIT_USAGE : 0;
  }
  return runCommand(io, USAGE, async () => {
    const load = COMMANDS[name];
    if (!load) throw new UsageError(`unknown command '${name}'`);
    await checkCwd(rest, io);
    return (await load())(rest, io);
  });
}

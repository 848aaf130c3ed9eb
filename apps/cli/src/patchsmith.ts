import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { COMMAND_TABLE, findCommand } from './command-table.js';
import type { CommandSpec } from './command-types.js';
import { didYouMean } from './did-you-mean.js';
import { commandHelp, globalHelp } from './help.js';
import { EXIT_OK, EXIT_USAGE, type Io, processIo, UsageError } from './io.js';
import { flag, option, parseCommandLine } from './parse-command-line.js';
import { runCommand } from './run-command.js';

/** The global help, as `patchsmith --help` prints it. */
export const USAGE = globalHelp();

/** A `--cwd` that is not an existing folder is a mistake in the command line (exit 2), for every command. */
async function checkCwd(dir: string | undefined, io: Io): Promise<void> {
  if (dir === undefined) return;
  const stats = await stat(resolve(io.cwd, dir)).catch(() => null);
  if (stats === null) throw new UsageError(`--cwd ${dir}: no such folder`);
  if (!stats.isDirectory()) throw new UsageError(`--cwd ${dir}: not a folder`);
}

/** The values given to `--cwd` (`--cwd DIR` or `--cwd=DIR`) in arguments no table parsed, up to `--`. */
function rawCwdValues(args: string[]): string[] {
  const values: string[] = [];
  for (let index = 0; index < args.length && args[index] !== '--'; index++) {
    const arg = args[index]!;
    if (arg.startsWith('--cwd=')) values.push(arg.slice('--cwd='.length));
    else if (arg === '--cwd' && args[index + 1] !== undefined) values.push(args[++index]!);
  }
  return values;
}

/** The command a name calls, or a usage error naming the closest command. */
function commandNamed(name: string): CommandSpec {
  const command = findCommand(name);
  if (command !== undefined) return command;
  const hint = didYouMean(
    name,
    COMMAND_TABLE.map((c) => c.name),
  );
  throw new UsageError(`unknown command '${name}'${hint}`);
}

// The arguments that ask for the global help or the version.
const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';
const isVersion = (arg: string | undefined) => arg === '--version' || arg === '-V';

export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr(USAGE);
    return EXIT_USAGE;
  }
  // `--json` anywhere before `--` makes the command's refusals JSON too.
  const json = rest.slice(0, rest.includes('--') ? rest.indexOf('--') : undefined).includes('--json');
  const usage = `run patchsmith ${findCommand(name) === undefined ? '' : `${name} `}--help for usage\n`;
  return runCommand(
    io,
    usage,
    async () => {
      if (isVersion(name)) {
        io.stdout(`patchsmith ${await (await import('./version.js')).cliVersion()}\n`);
        return EXIT_OK;
      }
      if (isHelp(name)) {
        io.stdout(rest[0] === undefined ? USAGE : commandHelp(commandNamed(rest[0])));
        return EXIT_OK;
      }
      const command = commandNamed(name);
      const parsed = parseCommandLine(command, rest);
      if (flag(parsed, 'help')) {
        io.stdout(commandHelp(command));
        return EXIT_OK;
      }
      const cwds = command.raw ? rawCwdValues(rest) : [option(parsed, 'cwd')];
      for (const dir of cwds) await checkCwd(dir, io);
      return (await command.load())(parsed, io);
    },
    { json },
  );
}

import type { Io } from './io.js';

/** A command line read against its command's flags. */
export interface ParsedCommandLine {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** The arguments as given, for a command that parses its own. */
  args: string[];
}

/** One flag of a command, as `util.parseArgs` takes it plus what `--help` and completions show. */
export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** The value's placeholder in help (`DIR`, `N`), for a string flag. */
  value?: string;
  /** The values a string flag takes, for help, completions and "did you mean". */
  choices?: readonly string[];
  /** A string flag that may be given more than once (its value is then every one, in order). */
  multiple?: boolean;
  help: string;
}

export type CommandRun = (parsed: ParsedCommandLine, io: Io) => Promise<number>;

export interface CommandSpec {
  name: string;
  summary: string;
  /** What follows the command name in the synopsis (`[FILE|-]`, `[ID]`). */
  operands: string;
  /** Most positionals the command takes. */
  maxOperands: number;
  flags: Readonly<Record<string, FlagSpec>>;
  examples: readonly string[];
  /** Takes its arguments unparsed (the MCP server parses its own). */
  raw?: boolean;
  load: () => Promise<CommandRun>;
}

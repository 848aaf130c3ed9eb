import { parseArgs } from 'node:util';
import type { CommandSpec, ParsedCommandLine } from './command-types.js';
import { didYouMean } from './did-you-mean.js';
import { UsageError } from './io.js';

export type { ParsedCommandLine } from './command-types.js';

/** The flag an argument names (`--jsno=1` names `jsno`), or null for a positional or after `--`. */
function flagName(arg: string): string | null {
  if (!arg.startsWith('--') || arg === '--') return null;
  return arg.slice(2).split('=', 1)[0]!;
}

/** Refuses a long flag the command does not take, naming the closest one it does. */
function checkFlagNames(command: CommandSpec, args: readonly string[]): void {
  const known = Object.keys(command.flags);
  for (const arg of args) {
    if (arg === '--') return;
    const name = flagName(arg);
    if (name === null || known.includes(name)) continue;
    const hint = didYouMean(name, known, (c) => `--${c}`);
    throw new UsageError(`${command.name}: unknown flag --${name}${hint}`);
  }
}

/** Refuses a value outside a flag's choices, naming the closest choice. */
function checkChoices(command: CommandSpec, values: ParsedCommandLine['values']): void {
  for (const [name, spec] of Object.entries(command.flags)) {
    const value = values[name];
    if (spec.choices === undefined || typeof value !== 'string' || spec.choices.includes(value)) continue;
    const hint = didYouMean(value, spec.choices);
    throw new UsageError(`--${name} ${value}: expected one of ${spec.choices.join(', ')}${hint}`);
  }
}

/**
 * Reads `args` against the command's flags (node's `util.parseArgs`, strict): an unknown flag or
 * choice gets the closest known one, too many operands say how many the command takes.
 */
export function parseCommandLine(command: CommandSpec, args: string[]): ParsedCommandLine {
  if (command.raw) {
    const help = args.length === 1 && (args[0] === '--help' || args[0] === '-h');
    return { values: { help }, positionals: [], args };
  }
  checkFlagNames(command, args);
  const options = Object.fromEntries(
    Object.entries(command.flags).map(([name, spec]) => [
      name,
      {
        type: spec.type,
        ...(spec.short === undefined ? {} : { short: spec.short }),
        ...(spec.multiple ? { multiple: true } : {}),
      },
    ]),
  );
  const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
  const parsed = { values: values as ParsedCommandLine['values'], positionals, args };
  checkChoices(command, parsed.values);
  if (!parsed.values.help && positionals.length > command.maxOperands) {
    const takes =
      command.maxOperands === 0 ? 'takes no arguments' : `takes at most ${command.maxOperands} argument`;
    throw new UsageError(
      `${command.name} ${takes} (got ${positionals.map((p) => JSON.stringify(p)).join(' ')})`,
    );
  }
  return parsed;
}

/** A boolean flag's value. */
export const flag = (parsed: ParsedCommandLine, name: string): boolean => parsed.values[name] === true;

/** Every value of a repeatable string flag, in order (none: an empty list). */
export function options(parsed: ParsedCommandLine, name: string): string[] {
  const value = parsed.values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/** A string flag's value, or undefined. */
export function option(parsed: ParsedCommandLine, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

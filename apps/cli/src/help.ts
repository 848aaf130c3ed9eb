import { COMMAND_TABLE } from './command-table.js';
import type { CommandSpec, FlagSpec } from './command-types.js';

/** A flag as help lists it: `-q, --quiet`, `--cwd DIR`, `--format auto|codex|...`. */
function flagLabel(name: string, spec: FlagSpec): string {
  const short = spec.short === undefined ? '    ' : `-${spec.short}, `;
  const value = spec.type === 'string' ? ` ${spec.value ?? spec.choices?.join('|') ?? 'VALUE'}` : '';
  return `${short}--${name}${value}`;
}

function table(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

/** `patchsmith <command> --help`: the synopsis, every flag, and examples. */
export function commandHelp(command: CommandSpec): string {
  const operands = command.operands === '' ? '' : ` ${command.operands}`;
  const flags = command.raw ? '' : ' [flags]';
  const lines = [
    `usage: patchsmith ${command.name}${operands}${flags}`,
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    'flags:',
    ...table(Object.entries(command.flags).map(([name, spec]) => [flagLabel(name, spec), spec.help])),
    '',
    'examples:',
    ...command.examples.map((example) => `  ${example}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** `patchsmith --help`: every command in one line, and where to read more. */
export function globalHelp(): string {
  const lines = [
    'usage: patchsmith <command> [flags]',
    '',
    'commands:',
    ...table(COMMAND_TABLE.map((command) => [command.name, command.summary])),
    '',
    'global flags:',
    ...table([
      ['-h, --help', 'show help (patchsmith <command> --help for a command’s flags)'],
      ['-V, --version', 'print the version'],
    ]),
    '',
    'Every command takes --cwd DIR, --json and --quiet; colour only on a terminal, never with NO_COLOR.',
  ];
  return `${lines.join('\n')}\n`;
}

import type { CommandSpec } from './command-types.js';

type Table = readonly CommandSpec[];

import type { ParsedCommandLine } from './command-types.js';
import { didYouMean } from './did-you-mean.js';
import { EXIT_OK, type Io, UsageError } from './io.js';

const names = (table: Table) => table.map((c) => c.name).join(' ');
const longFlags = (c: CommandSpec) => Object.keys(c.flags).map((f) => `--${f}`);
// A flag that takes a folder (completed as one).
const takesFolder = (flag: string) => flag === 'cwd';

function bash(table: Table): string {
  const cases = table.map((c) => `    ${c.name}) opts="${longFlags(c).join(' ')}" ;;`).join('\n');
  return `# patchsmith completion for bash: source this file, or put it in bash-completion's completions folder
_patchsmith() {
  local cur prev opts
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${names(table)} --help --version" -- "$cur") )
    return
  fi
  if [ "$prev" = "--cwd" ]; then
    COMPREPLY=( $(compgen -d -- "$cur") )
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases}
    *) opts="" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
  else
    COMPREPLY=( $(compgen -f -- "$cur") )
  fi
}
complete -o filenames -F _patchsmith patchsmith
`;
}

/** A zsh `_arguments` spec for one flag: `'--cwd[work in DIR]:DIR:_files -/'`. */
function zshFlag(name: string, c: CommandSpec): string {
  const spec = c.flags[name]!;
  const help = spec.help.replace(/[[\]':]/g, ' ');
  if (spec.type === 'boolean') return `'--${name}[${help}]'`;
  const action = takesFolder(name) ? '_files -/' : spec.choices ? `(${spec.choices.join(' ')})` : ' ';
  return `'--${name}=[${help}]:${spec.value ?? 'VALUE'}:${action}'`;
}

function zsh(table: Table): string {
  const commands = table.map((c) => `    '${c.name}:${c.summary.replace(/'/g, ' ')}'`).join('\n');
  const cases = table
    .map(
      (c) =>
        `    ${c.name}) _arguments ${Object.keys(c.flags)
          .map((f) => zshFlag(f, c))
          .join(' ')} '*:file:_files' ;;`,
    )
    .join('\n');
  return `#compdef patchsmith
# patchsmith completion for zsh: put this file on $fpath as _patchsmith
_patchsmith() {
  local -a commands
  commands=(
${commands}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  words=("\${words[@]:1}")
  (( CURRENT-- ))
  case "\${words[1]}" in
${cases}
  esac
}
_patchsmith "$@"
`;
}

function fish(table: Table): string {
  const lines = [
    '# patchsmith completion for fish: put this file in ~/.config/fish/completions/patchsmith.fish',
    'complete -c patchsmith -f',
    ...table.map(
      (c) =>
        `complete -c patchsmith -n '__fish_use_subcommand' -a ${c.name} -d '${c.summary.replace(/'/g, "\\'")}'`,
    ),
  ];
  for (const c of table) {
    for (const [name, spec] of Object.entries(c.flags)) {
      const short = spec.short === undefined ? '' : ` -s ${spec.short}`;
      const value =
        spec.type === 'string' ? (takesFolder(name) ? ' -r -a "(__fish_complete_directories)"' : ' -r') : '';
      const choices = spec.choices ? ` -a '${spec.choices.join(' ')}'` : '';
      const help = spec.help.replace(/'/g, "\\'");
      lines.push(
        `complete -c patchsmith -n '__fish_seen_subcommand_from ${c.name}' -l ${name}${short}${value}${choices} -d '${help}'`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const SHELLS: Record<string, (table: Table) => string> = { bash, zsh, fish };

/** `patchsmith completion bash|zsh|fish`: the completion script, made from the command table it is given. */
export async function completionCommand(parsed: ParsedCommandLine, io: Io, table: Table): Promise<number> {
  const shell = parsed.positionals[0];
  if (shell === undefined) throw new UsageError('completion needs a shell: bash, zsh or fish');
  const script = Object.hasOwn(SHELLS, shell) ? SHELLS[shell] : undefined;
  if (script === undefined) {
    throw new UsageError(`completion: unknown shell '${shell}'${didYouMean(shell, Object.keys(SHELLS))}`);
  }
  io.stdout(script(table));
  return EXIT_OK;
}

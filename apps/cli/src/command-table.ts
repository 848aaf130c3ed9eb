import type { CommandSpec, FlagSpec } from './command-types.js';

// Every command takes these: where to work, how to answer, and its own help.
const COMMON: Record<string, FlagSpec> = {
  cwd: { type: 'string', value: 'DIR', help: 'work in DIR instead of the current folder' },
  json: { type: 'boolean', help: 'print one JSON document on stdout (schemas: docs/cli-json.md)' },
  quiet: { type: 'boolean', short: 'q', help: 'print nothing on success (errors still go to stderr)' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
};

const FORMAT: FlagSpec = {
  type: 'string',
  value: 'FORMAT',
  choices: ['auto', 'codex', 'unified', 'search-replace', 'whole-file', 'str_replace'],
  help: 'auto (the default: detected), codex, unified, search-replace, whole-file or str_replace',
};
const FIRST_MATCH: FlagSpec = {
  type: 'boolean',
  help: 'take the first of several equally good matches instead of refusing',
};
const FORCE_RESTORE: FlagSpec = {
  type: 'boolean',
  help: 'restore even files that changed since (those changes are lost)',
};
const YES: FlagSpec = {
  type: 'boolean',
  short: 'y',
  help: 'answer yes to every ask rule (deny rules still deny)',
};

const DIRECTORY: FlagSpec = {
  type: 'string',
  value: 'DIR',
  help: "put DIR in front of every path of the edit (as git apply's --directory)",
};

const ALLOW_ELISION: FlagSpec = {
  type: 'boolean',
  help: 'apply an edit even where it writes a placeholder (`// ... existing code ...`) over deleted lines',
};

const FORMAT_CODE: FlagSpec = {
  type: 'boolean',
  help: "run the project's formatter on what the edit writes, before writing (runs the repository's code)",
};

const APPLY_FLAGS: Record<string, FlagSpec> = {
  format: FORMAT,
  directory: DIRECTORY,
  check: { type: 'boolean', help: 'check that the edit applies, writing nothing' },
  'first-match': FIRST_MATCH,
  confirm: { type: 'boolean', help: 'ask before writing every file' },
  yes: YES,
  diagnostics: {
    type: 'boolean',
    help: 'report the problems the edit introduced, in the edited files and those that import them',
  },
  'diagnostics-timeout': {
    type: 'string',
    value: 'SECONDS',
    help: 'the longest wait for diagnostics, servers starting included (default 15)',
  },
  'project-servers': {
    type: 'boolean',
    help: "with --diagnostics, also run the servers and TypeScript in the project's node_modules (its code: trust it first)",
  },
  'no-snapshot': { type: 'boolean', help: 'take no snapshot (the edit cannot be undone)' },
  diff: { type: 'boolean', help: 'show each file’s change as a diff' },
  'allow-elision': ALLOW_ELISION,
  'format-code': FORMAT_CODE,
  partial: {
    type: 'boolean',
    help: 'write the files whose edits all locate (one transaction), report the others (exit 3)',
  },
  'base-from': {
    type: 'string',
    value: 'PATH=FILE',
    multiple: true,
    help: 'FILE is PATH as the model read it: a change made since is merged (three-way) or STALE',
  },
};

const applyLoader = async () => (await import('./commands/apply.js')).applyCommand;

/** Every command, in the order help lists them. */
export const COMMAND_TABLE: readonly CommandSpec[] = [
  {
    name: 'apply',
    summary: 'apply an edit (a patch, a diff, SEARCH/REPLACE blocks or str_replace JSON)',
    operands: '[FILE|-]',
    maxOperands: 1,
    flags: { ...COMMON, ...APPLY_FLAGS },
    examples: ['patchsmith apply change.patch', 'git diff | patchsmith apply --check -'],
    load: applyLoader,
  },
  {
    name: 'check',
    summary: 'check that an edit applies, writing nothing (apply --check)',
    operands: '[FILE|-]',
    maxOperands: 1,
    flags: {
      ...COMMON,
      format: FORMAT,
      directory: DIRECTORY,
      'first-match': FIRST_MATCH,
      diff: APPLY_FLAGS.diff!,
      'allow-elision': ALLOW_ELISION,
      'format-code': FORMAT_CODE,
      'base-from': APPLY_FLAGS['base-from']!,
    },
    examples: ['patchsmith check change.patch'],
    load: async () => {
      const run = await applyLoader();
      return (parsed, io) => run({ ...parsed, values: { ...parsed.values, check: true } }, io);
    },
  },
  {
    name: 'diff',
    summary: 'print the change an edit would make as one unified diff, writing nothing',
    operands: '[FILE|-]',
    maxOperands: 1,
    flags: {
      ...COMMON,
      format: FORMAT,
      directory: DIRECTORY,
      'first-match': FIRST_MATCH,
      'allow-elision': ALLOW_ELISION,
      'format-code': FORMAT_CODE,
    },
    examples: ['patchsmith diff edits.json --format str_replace | less'],
    load: async () => (await import('./commands/diff.js')).diffCommand,
  },
  {
    name: 'undo',
    summary: 'restore the files of the newest snapshot that can be restored (or of snapshot ID)',
    operands: '[ID]',
    maxOperands: 1,
    flags: {
      ...COMMON,
      list: { type: 'boolean', help: 'list what undo would take, and what it would pass over' },
      force: FORCE_RESTORE,
      yes: YES,
    },
    examples: ['patchsmith undo', 'patchsmith undo --list', 'patchsmith undo 20260101-120000-ab12 --force'],
    load: async () => (await import('./commands/undo.js')).undoCommand,
  },
  {
    name: 'redo',
    summary: 'take back the last undo',
    operands: '',
    maxOperands: 0,
    flags: { ...COMMON, force: FORCE_RESTORE, yes: YES },
    examples: ['patchsmith redo'],
    load: async () => (await import('./commands/undo.js')).redoCommand,
  },
  {
    name: 'log',
    summary: 'list the snapshots, newest first, each with its state (applied, undone, stale) and files',
    operands: '',
    maxOperands: 0,
    flags: { ...COMMON },
    examples: ['patchsmith log', 'patchsmith log --json'],
    load: async () => (await import('./commands/log.js')).logCommand,
  },
  {
    name: 'forget',
    summary: 'drop snapshot ID from the history (a stale or broken one in the way)',
    operands: 'ID',
    maxOperands: 1,
    flags: { ...COMMON },
    examples: ['patchsmith forget 20260101-120000-ab12'],
    load: async () => (await import('./commands/history.js')).forgetCommand,
  },
  {
    name: 'gc',
    summary: 'prune old snapshots (their refs; the objects are left to git gc)',
    operands: '',
    maxOperands: 0,
    flags: {
      ...COMMON,
      keep: { type: 'string', value: 'N', help: 'keep at least the newest N snapshots' },
      'older-than': {
        type: 'string',
        value: 'AGE',
        help: 'drop only snapshots older than AGE (30d, 12h, 2w, 90m)',
      },
    },
    examples: ['patchsmith gc --keep 50', 'patchsmith gc --keep 10 --older-than 30d'],
    load: async () => (await import('./commands/history.js')).gcCommand,
  },
  {
    name: 'recover',
    summary: 'finish rolling back an apply that was interrupted',
    operands: '',
    maxOperands: 0,
    flags: {
      ...COMMON,
      discard: { type: 'boolean', help: 'drop the interrupted apply instead, restoring nothing' },
    },
    examples: ['patchsmith recover', 'patchsmith recover --discard'],
    load: async () => (await import('./commands/recover.js')).recoverCommand,
  },
  {
    name: 'completion',
    summary: 'print a shell completion script',
    operands: 'bash|zsh|fish',
    maxOperands: 1,
    flags: { help: COMMON.help! },
    examples: ['patchsmith completion bash > ~/.local/share/bash-completion/completions/patchsmith'],
    load: async () => {
      const { completionCommand } = await import('./completion.js');
      return (parsed, io) => completionCommand(parsed, io, COMMAND_TABLE);
    },
  },
  {
    name: 'mcp',
    summary: 'run the MCP server on stdio (needs @patchsmith/adapters)',
    operands:
      '[--cwd DIR] [--first-match] [--no-snapshot] [--diagnostics] [--format-code] [--max-message-bytes N]',
    maxOperands: 0,
    flags: { help: COMMON.help! },
    examples: ['patchsmith mcp --cwd ~/project'],
    raw: true,
    load: async () => {
      const { mcpCommand } = await import('./commands/mcp.js');
      return (parsed, io) => mcpCommand(parsed.args, io);
    },
  },
];

/** The command named `name`, or undefined. */
export function findCommand(name: string): CommandSpec | undefined {
  return COMMAND_TABLE.find((command) => command.name === name);
}

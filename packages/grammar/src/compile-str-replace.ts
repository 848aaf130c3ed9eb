/**
 * Compiles text-editor commands (str_replace input, as agent SDKs define them) into an edit script:
 * `str_replace` -> a `replace` operation (exact substring first), `create` -> an Add with the exact
 * `file_text`, `insert` -> an `insert` operation. Each operation's `line` is the command's 1-based
 * position in the list. Malformed commands are INVALID_EDIT values, all reported together.
 */
import type { EditError, EditScript, Operation, Result } from '@patchsmith/core';
import { canonicalFields, inCallerNames } from './str-replace-aliases.js';
import { loneSurrogate } from './well-formed.js';

/** Takes `unknown` values: commands usually arrive as JSON, so their shape is checked here. */
export function compileStrReplace(commands: readonly unknown[]): Result<EditScript> {
  if (commands.length === 0)
    return { ok: false, errors: [{ code: 'EMPTY_PATCH', message: 'no edit was given' }] };
  const operations: Operation[] = [];
  const errors: EditError[] = [];
  commands.forEach((command, i) => {
    const compiled = compileCommand(command, i + 1);
    if (!('code' in compiled)) operations.push(compiled);
    else
      errors.push(
        isRecord(command) ? { ...compiled, message: inCallerNames(compiled.message, command) } : compiled,
      );
  });
  return errors.length > 0
    ? { ok: false, errors }
    : { ok: true, value: { format: 'str_replace', operations } };
}

function invalid(line: number, message: string, path?: string): EditError {
  return {
    code: 'INVALID_EDIT',
    message: `edit ${line}: ${message}`,
    line,
    ...(path !== undefined ? { path } : {}),
  };
}

/** A plain object (what JSON gives for `{...}`). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compileCommand(raw: unknown, line: number): Operation | EditError {
  if (!isRecord(raw)) return invalid(line, 'expected an object with a "command" field');
  const canonical = canonicalFields(raw);
  if (!canonical.ok) return invalid(line, canonical.message, pathOf(raw));
  const { command } = canonical;
  const malformed = notWellFormedField(command, line);
  if (malformed !== null) return malformed;
  const { path } = command;
  if (typeof path !== 'string' || path === '') return invalid(line, '"path" must be a non-empty string');
  switch (command.command) {
    case 'str_replace':
      return strReplace(command, path, line);
    case 'create':
      if (typeof command.file_text !== 'string')
        return invalid(line, 'create needs "file_text" (a string)', path);
      return { kind: 'add', path, lines: contentLines(command.file_text), content: command.file_text, line };
    case 'insert': {
      const { insert_line: after, new_str: text } = command;
      if (typeof after !== 'number' || !Number.isInteger(after) || after < 0) {
        return invalid(
          line,
          'insert needs "insert_line", a whole number of 0 or more (0 inserts at the top)',
          path,
        );
      }
      if (typeof text !== 'string') return invalid(line, 'insert needs "new_str" (a string)', path);
      return { kind: 'insert', path, after, text, line };
    }
    case 'view':
      return invalid(line, '"view" reads a file; it is not an edit', path);
    default:
      return invalid(
        line,
        `unknown command ${JSON.stringify(command.command)}: expected "str_replace", "create" or "insert"`,
        path,
      );
  }
}

function strReplace(command: Record<string, unknown>, path: string, line: number): Operation | EditError {
  const { old_str: search, new_str: replace = '', replace_all: all = false } = command;
  if (typeof search !== 'string') return invalid(line, 'str_replace needs "old_str" (a string)', path);
  if (typeof replace !== 'string') return invalid(line, '"new_str" must be a string', path);
  if (typeof all !== 'boolean') return invalid(line, '"replace_all" must be true or false', path);
  // OpenCode's and Claude Code's way to create a file. Only a new one: a model that forgot
  // `old_str` must not wipe a file it never showed.
  if (search === '')
    return { kind: 'add', path, lines: contentLines(replace), content: replace, line, createOnly: true };
  if (search === replace)
    return invalid(line, '"old_str" and "new_str" are the same: nothing would change', path);
  return { kind: 'replace', path, search, replace, all, wholeLines: false, line };
}

/**
 * A string field holding a lone UTF-16 surrogate (JSON allows `"\ud800"`): UTF-8 cannot write it,
 * so the file would get U+FFFD instead of what the model meant.
 */
function notWellFormedField(command: Record<string, unknown>, line: number): EditError | null {
  for (const [field, value] of Object.entries(command)) {
    if (typeof value !== 'string') continue;
    const at = loneSurrogate(value);
    if (at === null) continue;
    const path =
      typeof command.path === 'string' && loneSurrogate(command.path) === null ? command.path : undefined;
    return invalid(
      line,
      `"${field}" is not valid Unicode: its line ${at.line}, column ${at.column} holds a lone UTF-16 surrogate, ` +
        'which UTF-8 cannot write (it would become U+FFFD)',
      path,
    );
  }
  return null;
}

/** The command's path, when it has a usable one (for an error about its other fields). */
function pathOf(raw: Record<string, unknown>): string | undefined {
  const path = raw.path ?? raw.file_path ?? raw.filePath;
  return typeof path === 'string' && path !== '' && loneSurrogate(path) === null ? path : undefined;
}

/** What an Add's `lines` says of exact content: its lines, without the empty one after a final newline. */
function contentLines(content: string): string[] {
  return content === '' ? [] : content.replace(/\n$/, '').split('\n');
}

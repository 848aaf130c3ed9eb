/**
 * The spellings of text-editor command fields that SDKs and models use (Anthropic's `old_str`,
 * Claude Code's `file_path` / `old_string`, OpenCode's `filePath` / `oldString` / `replaceAll`),
 * brought to one: the canonical names of `StrReplaceCommand`. A field nobody defines is an error
 * that names it, never silently dropped: a misspelt `replace_all` would change what is replaced.
 */

/** Canonical field -> the other names it goes by. */
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  command: [],
  path: ['file_path', 'filePath', 'file', 'filename'],
  old_str: ['old_string', 'oldString', 'oldStr'],
  new_str: ['new_string', 'newString', 'newStr'],
  replace_all: ['replaceAll'],
  file_text: ['content', 'fileText'],
  insert_line: ['line', 'insertLine'],
  // Read by `view`, which is refused as no edit; named so the refusal says that.
  view_range: [],
};

/** Alias -> canonical field. */
const CANONICAL = new Map<string, string>(
  Object.entries(ALIASES).flatMap(([canonical, aliases]) => [
    [canonical, canonical] as const,
    ...aliases.map((alias) => [alias, canonical] as const),
  ]),
);

/** A field name some text-editor tool uses (any spelling). */
export function isCommandField(name: string): boolean {
  return CANONICAL.has(name);
}

/** The fields each command reads; anything else given is a mistake worth naming. */
const FIELDS_OF: Readonly<Record<string, readonly string[]>> = {
  str_replace: ['command', 'path', 'old_str', 'new_str', 'replace_all'],
  create: ['command', 'path', 'file_text'],
  insert: ['command', 'path', 'insert_line', 'new_str'],
};

export type Canonical = { ok: true; command: Record<string, unknown> } | { ok: false; message: string };

/**
 * The command with canonical field names. Without a `command` field (Claude Code's and OpenCode's
 * edit tools send none) an `old_str` makes it a `str_replace` and a `file_text` a `create`.
 */
export function canonicalFields(raw: Record<string, unknown>): Canonical {
  const command: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [field, value] of Object.entries(raw)) {
    const canonical = CANONICAL.get(field);
    if (canonical === undefined) {
      unknown.push(field);
      continue;
    }
    if (canonical in command && command[canonical] !== value) {
      return { ok: false, message: `${namesOf(raw, canonical)} are the same field with different values` };
    }
    command[canonical] = value;
  }
  if (unknown.length > 0) return { ok: false, message: `unknown ${fieldList(unknown)}` };
  if (!('command' in command)) {
    const implied = impliedCommand(command);
    if (implied !== null) command.command = implied;
  }
  const allowed = FIELDS_OF[String(command.command)];
  if (allowed !== undefined) {
    const extra = Object.keys(command).filter((field) => !allowed.includes(field));
    if (extra.length > 0) {
      const given = extra.map((field) => givenName(raw, field));
      return {
        ok: false,
        message: `${fieldList(given)} ${given.length === 1 ? 'is' : 'are'} not read by "${String(command.command)}" (it reads ${allowed
          .map((f) => `"${f}"`)
          .join(', ')})`,
      };
    }
  }
  return { ok: true, command };
}

/** The command an edit tool without a `command` field means, from the fields it carries. */
function impliedCommand(command: Record<string, unknown>): string | null {
  if ('old_str' in command) return 'str_replace';
  if ('file_text' in command) return 'create';
  if ('insert_line' in command) return 'insert';
  return null;
}

/** The name the caller used for a canonical field. */
function givenName(raw: Record<string, unknown>, canonical: string): string {
  return Object.keys(raw).find((field) => CANONICAL.get(field) === canonical) ?? canonical;
}

/** `"a" and "b"`: the names given for one canonical field. */
function namesOf(raw: Record<string, unknown>, canonical: string): string {
  const names = Object.keys(raw).filter((field) => CANONICAL.get(field) === canonical);
  return names.map((n) => `"${n}"`).join(' and ');
}

function fieldList(fields: readonly string[]): string {
  return `${fields.length === 1 ? 'field' : 'fields'} ${fields.map((f) => JSON.stringify(f)).join(', ')}`;
}

/** A message about canonical fields in the names the caller used: `"old_str"` reads `"old_string"` when that was sent. */
export function inCallerNames(message: string, raw: Record<string, unknown>): string {
  return message.replace(/"([a-z_]+)"/g, (quoted, field: string) => {
    const given = ALIASES[field] === undefined ? undefined : givenName(raw, field);
    return given === undefined || given === field || !(given in raw) ? quoted : `"${given}"`;
  });
}

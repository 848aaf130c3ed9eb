import { posix } from 'node:path';
import type { Journal, JournalEntry } from './journal.js';

/** Why one field of a private state file cannot be trusted: `entries[0].temp`, `is missing`. */
export interface StateProblem {
  field: string;
  reason: string;
}

/** A tree path a journal names, with the field it came from, for the check against the disk. */
export interface NamedPath {
  field: string;
  path: string;
}

/** The journal's id: the hex tag of its temporary files. */
export const JOURNAL_ID = /^[0-9a-f]{12}$/;
/** A backup's name in the transaction folder: `backup-<index of its write>`. */
export const BACKUP_NAME = /^backup-(0|[1-9][0-9]{0,8})$/;
const JOURNAL_KEYS = ['version', 'id', 'base', 'createdDirs', 'dirModes', 'entries'];
const ENTRY_KEYS = ['path', 'temp', 'target', 'created', 'backup', 'restoreTo', 'remove'];
const TREE_PATH_FIELDS = ['temp', 'target', 'restoreTo', 'remove'] as const;
/** Longer than any path a file system takes: a journal holding one was not written by us. */
const MAX_PATH_CHARS = 65_536;

class ShapeError extends Error {
  constructor(readonly problem: StateProblem) {
    super(`${problem.field} ${problem.reason}`);
  }
}

const fail = (field: string, reason: string): never => {
  throw new ShapeError({ field, reason });
};

// A JSON object (not an array, not null).
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Exactly these keys: the first missing one, else the first unknown one, fails. */
function requireKeys(value: Record<string, unknown>, keys: readonly string[], at: string): void {
  for (const key of keys) if (!Object.hasOwn(value, key)) fail(`${at}${key}`, 'is missing');
  for (const key of Object.keys(value))
    if (!keys.includes(key)) fail(`${at}${key}`, 'is not a journal field');
}

function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string') return fail(field, `must be a string, not ${describe(value)}`);
  if (value.length === 0 || value.length > MAX_PATH_CHARS) fail(field, 'must be a path of a sensible length');
  return value;
}

const describe = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

function requireArray(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) return fail(field, `must be an array, not ${describe(value)}`);
  return value;
}

// The staged file of `target`: a hidden name beside it, tagged with the journal's id.
function isTempNameFor(temp: string, target: string, id: string): boolean {
  const name = posix.basename(temp);
  return (
    posix.dirname(temp) === posix.dirname(target) &&
    name.startsWith('.') &&
    name.endsWith(`.${id}.patchsmith-tmp`) &&
    name.length > `..${id}.patchsmith-tmp`.length
  );
}

function checkEntry(value: unknown, at: string, paths: NamedPath[]): JournalEntry {
  if (!isRecord(value)) return fail(at, `must be an object, not ${describe(value)}`);
  requireKeys(value, ENTRY_KEYS, `${at}.`);
  requireString(value.path, `${at}.path`);
  if (typeof value.created !== 'boolean')
    fail(`${at}.created`, `must be true or false, not ${describe(value.created)}`);
  for (const key of TREE_PATH_FIELDS) {
    if (value[key] === null) continue;
    paths.push({ field: `${at}.${key}`, path: requireString(value[key], `${at}.${key}`) });
  }
  if (value.backup !== null && (typeof value.backup !== 'string' || !BACKUP_NAME.test(value.backup))) {
    fail(`${at}.backup`, 'must be a backup name in the transaction folder (backup-N)');
  }
  return value as unknown as JournalEntry;
}

/** How an entry's fields must go together, as the transaction writes them. */
function checkRelations(entry: JournalEntry, at: string, id: string): void {
  if ((entry.temp === null) !== (entry.target === null))
    fail(`${at}.temp`, 'and target must be given together');
  if (entry.temp !== null && !isTempNameFor(entry.temp, entry.target as string, id)) {
    fail(`${at}.temp`, 'is not the name of a staged file beside its target');
  }
  if ((entry.backup === null) !== (entry.restoreTo === null)) {
    fail(`${at}.backup`, 'and restoreTo must be given together');
  }
  if (entry.created && (entry.target === null || entry.backup !== null)) {
    fail(`${at}.created`, 'needs a target and no backup');
  }
  if (entry.remove !== null && entry.temp !== null) fail(`${at}.remove`, 'cannot go with a staged file');
}

function checkDirModes(value: unknown, paths: NamedPath[]): Record<string, number> {
  if (!isRecord(value)) return fail('dirModes', `must be an object, not ${describe(value)}`);
  for (const [dir, mode] of Object.entries(value)) {
    const field = `dirModes[${JSON.stringify(dir)}]`;
    if (!Number.isInteger(mode) || (mode as number) < 0 || (mode as number) > 0o7777) {
      fail(field, 'must be a permission mode (0 to 0o7777)');
    }
    paths.push({ field, path: requireString(dir, field) });
  }
  return value as Record<string, number>;
}

/** Runs checks that throw a `ShapeError`, answering its problem instead. */
function problemOf(check: () => void): StateProblem | null {
  try {
    check();
    return null;
  } catch (error) {
    if (error instanceof ShapeError) return error.problem;
    throw error;
  }
}

/**
 * Checks what a journal file parsed to against the format this version writes, exactly: every
 * field present with its type, nothing else, backups plain `backup-N` names. The tree paths it
 * names are answered for a check against the disk, which comes before `journalRelationsProblem`.
 */
export function checkJournalShape(
  value: unknown,
): { ok: true; journal: Journal; paths: NamedPath[] } | { ok: false; problem: StateProblem } {
  const paths: NamedPath[] = [];
  const problem = problemOf(() => {
    if (!isRecord(value)) return fail('the file', `must hold a JSON object, not ${describe(value)}`);
    requireKeys(value, JOURNAL_KEYS, '');
    if (value.version !== 1) fail('version', `must be 1, not ${JSON.stringify(value.version)}`);
    if (typeof value.id !== 'string' || !JOURNAL_ID.test(value.id)) fail('id', 'must be 12 hex digits');
    if (typeof value.base !== 'string') fail('base', `must be a string, not ${describe(value.base)}`);
    for (const [index, dir] of requireArray(value.createdDirs, 'createdDirs').entries()) {
      paths.push({ field: `createdDirs[${index}]`, path: requireString(dir, `createdDirs[${index}]`) });
    }
    checkDirModes(value.dirModes, paths);
    for (const [index, entry] of requireArray(value.entries, 'entries').entries()) {
      checkEntry(entry, `entries[${index}]`, paths);
    }
  });
  return problem === null ? { ok: true, journal: value as Journal, paths } : { ok: false, problem };
}

/** The first entry whose fields do not go together as the transaction writes them (staged names, backups). */
export function journalRelationsProblem(journal: Journal): StateProblem | null {
  return problemOf(() => {
    const backups = new Set<string>();
    for (const [index, entry] of journal.entries.entries()) {
      checkRelations(entry, `entries[${index}]`, journal.id);
      if (entry.backup === null) continue;
      if (backups.has(entry.backup)) fail(`entries[${index}].backup`, 'names a backup another entry uses');
      backups.add(entry.backup);
    }
  });
}

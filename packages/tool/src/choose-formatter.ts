import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FormatEntries, type FormatEntry, formatEntryFor } from '@patchsmith/core';

/** How a file gets formatted: the root's prettier in this process, or a command on stdin. */
export type Formatter =
  | { kind: 'prettier' }
  | { kind: 'command'; name: string; argv: readonly string[] }
  /** A formatter applies but cannot run (not installed): the file is written as the edit made it. */
  | { kind: 'missing'; name: string; note: string };

/** The files prettier can be told about by a config in the root (the names its own search knows). */
const PRETTIER_CONFIGS = [
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.json5',
  '.prettierrc.yaml',
  '.prettierrc.yml',
  '.prettierrc.toml',
  '.prettierrc.js',
  '.prettierrc.cjs',
  '.prettierrc.mjs',
  '.prettierrc.ts',
  'prettier.config.js',
  'prettier.config.cjs',
  'prettier.config.mjs',
  'prettier.config.ts',
];
const BIOME_CONFIGS = ['biome.json', 'biome.jsonc'];
/** The files biome formats (it refuses others on stdin). */
const BIOME_FILES = /\.(?:[cm]?[jt]sx?|json|jsonc|css|graphql|gql)$/i;
/** Notebooks are printed back in their own formatting; a formatter would restyle the whole JSON. */
const NOTEBOOK = /\.ipynb$/i;

const exists = async (path: string) => (await lstat(path).catch(() => null)) !== null;

/** The project's formatter, when its config is in the root: prettier (also a `prettier` key in package.json), else biome. */
export async function detectFormatter(root: string): Promise<'prettier' | 'biome' | null> {
  for (const name of PRETTIER_CONFIGS) if (await exists(join(root, name))) return 'prettier';
  const manifest = await readFile(join(root, 'package.json'), 'utf8').catch(() => null);
  if (manifest !== null && hasPrettierKey(manifest)) return 'prettier';
  for (const name of BIOME_CONFIGS) if (await exists(join(root, name))) return 'biome';
  return null;
}

/** A package.json that configures prettier. */
function hasPrettierKey(manifest: string): boolean {
  try {
    const parsed = JSON.parse(manifest) as unknown;
    return typeof parsed === 'object' && parsed !== null && 'prettier' in parsed;
  } catch {
    return false;
  }
}

/** The root's own biome (its node_modules only), as a command: node and biome's launcher script. */
async function biomeCommand(root: string): Promise<Formatter> {
  const launcher = join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');
  if (!(await exists(launcher))) {
    return { kind: 'missing', name: 'biome', note: 'biome is not installed in node_modules' };
  }
  return {
    kind: 'command',
    name: 'biome',
    argv: [process.execPath, launcher, 'format', '--stdin-file-path={path}'],
  };
}

/** The formatter one entry names. */
async function formatterOf(
  root: string,
  entry: Exclude<FormatEntry, false>,
  hasPrettier: boolean,
): Promise<Formatter> {
  if (entry === 'biome') return biomeCommand(root);
  if (entry === 'prettier') {
    return hasPrettier
      ? { kind: 'prettier' }
      : { kind: 'missing', name: 'prettier', note: 'prettier is not installed in node_modules' };
  }
  return { kind: 'command', name: commandName(entry), argv: entry };
}

/** A command as a report names it: as configured, cut when long (`node -e …` would fill a line). */
function commandName(argv: readonly string[]): string {
  const name = argv.join(' ');
  return name.length > 40 ? `${name.slice(0, 40)}…` : name;
}

/** What the project asks for, read once per edit. */
export interface FormatSettings {
  root: string;
  entries: FormatEntries;
  detected: 'prettier' | 'biome' | null;
  hasPrettier: boolean;
}

/**
 * The formatter of a root-relative path: the first `format` glob that matches it, else the
 * detected project formatter (biome only for the files it formats); null: none, or `false`.
 */
export async function chooseFormatter(path: string, settings: FormatSettings): Promise<Formatter | null> {
  const entry = formatEntryFor(path, settings.entries);
  if (entry === false) return null;
  if (entry !== undefined) return formatterOf(settings.root, entry, settings.hasPrettier);
  if (NOTEBOOK.test(path) || settings.detected === null) return null;
  if (settings.detected === 'biome' && !BIOME_FILES.test(path)) return null;
  return formatterOf(settings.root, settings.detected, settings.hasPrettier);
}

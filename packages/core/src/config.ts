import { open, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { EditError, Result } from './errors.js';
import type { FormatEntries } from './format-entries.js';
import { expandBraces, GlobSyntaxError } from './glob-match.js';
import { CONFIG_FILE } from './path-policy.js';
import type { EnclosingRules, PermissionPolicy } from './permission-rules.js';
import { memoByStat } from './stat-memo.js';
import { locateStateDir } from './state-dir.js';

export interface PatchsmithConfig {
  policy: PermissionPolicy;
  /** Run language-server diagnostics after every apply, as if `--diagnostics` were given. */
  diagnostics: boolean;
  /** The `format` section, when the config has one (run only when the host opts in). */
  format?: FormatEntries;
}

/**
 * The calls a config read needs: `node:fs/promises` or any `PatchsmithFs` satisfies it. On the
 * disk (`disk: true`, or no fs given) the file is opened without blocking, so that a FIFO behind
 * the name cannot hang the call; any other fs is asked for the name's stat first. Without `stat`
 * the folders above the root are not searched for a repository (a virtual tree may have none).
 */
export interface ConfigFs {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  stat?(path: string): Promise<{ isDirectory(): boolean; isFile(): boolean; size?: number }>;
  readonly disk?: boolean;
}

/** A config is a few rules; anything larger is not one (and a hostile tree may link it to /dev/zero). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** The refusal of a name that is no config file (`code` as Node's errors carry one). */
const notAConfig = (message: string, code: string) => Object.assign(new Error(message), { code });
const tooLarge = () => notAConfig(`it is larger than ${MAX_CONFIG_BYTES} bytes`, 'EFBIG');

/** Throws unless the stat is of a regular file of at most MAX_CONFIG_BYTES. */
function checkConfigStat(stats: { isFile(): boolean; size?: number }): void {
  if (!stats.isFile()) throw notAConfig('it is not a regular file', 'EINVAL');
  if ((stats.size ?? 0) > MAX_CONFIG_BYTES) throw tooLarge();
}

/**
 * Reads the config from the disk without trusting what the name is: only a regular file (a FIFO
 * would block forever, a device never end), at most MAX_CONFIG_BYTES, opened without blocking.
 */
const diskConfigFs: ConfigFs = {
  stat: (path) => stat(path),
  async readFile(path) {
    const { constants } = await import('node:fs');
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      checkConfigStat(await handle.stat());
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  },
};

/** The config's text through `fs`: the disk's own reader there, elsewhere the stat checked first. */
async function readConfigText(fs: ConfigFs, path: string): Promise<string> {
  if (fs.disk === true) return diskConfigFs.readFile(path, 'utf8');
  if (fs.stat !== undefined) checkConfigStat(await fs.stat(path));
  const text = await fs.readFile(path, 'utf8');
  if (text.length > MAX_CONFIG_BYTES) throw tooLarge();
  return text;
}

function configError(message: string, file = CONFIG_FILE): Result<never> {
  const error: EditError = { code: 'PARSE_ERROR', message: `${file}: ${message}`, path: file };
  return { ok: false, errors: [error] };
}

/** One schema problem in words (zod/mini carries no message catalogue, so we name what it found). */
function describeIssue(issue: {
  code: string;
  message: string;
  keys?: string[];
  expected?: unknown;
  values?: unknown[];
}): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown key${issue.keys!.length > 1 ? 's' : ''} ${issue.keys!.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'invalid_type':
      return `expected ${String(issue.expected)}`;
    case 'invalid_value':
      return `expected one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return 'must not be empty';
    default:
      return issue.message;
  }
}

/** Reads a config from an already parsed object, validated by the schema (loaded only then). */
export async function parseConfig(value: unknown, source = CONFIG_FILE): Promise<Result<PatchsmithConfig>> {
  return parseConfigAs(value, source, CONFIG_FILE);
}

/** `parseConfig`, with `file` naming the config in messages. */
async function parseConfigAs(
  value: unknown,
  source: string,
  file: string,
): Promise<Result<PatchsmithConfig>> {
  const { configSchema } = await import('./config-schema.js');
  const parsed = configSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (i) => `${i.path.join('.') || '(top level)'}: ${describeIssue(i)}`,
    );
    return configError(issues.join('; '), file);
  }
  const badGlob = parsed.data.permissions.findIndex((rule) => globProblem(rule.match) !== null);
  if (badGlob !== -1) {
    return configError(
      `permissions.${badGlob}.match: ${globProblem(parsed.data.permissions[badGlob]!.match)}`,
    );
  }
  return {
    ok: true,
    value: {
      policy: { rules: parsed.data.permissions, source },
      diagnostics: parsed.data.diagnostics,
      ...(parsed.data.format === undefined ? {} : { format: parsed.data.format }),
    },
  };
}

/** Why a rule's glob cannot be used (its braces make too many patterns), or null. */
function globProblem(match: string): string | null {
  try {
    expandBraces(match);
    return null;
  } catch (error) {
    if (error instanceof GlobSyntaxError) return error.message;
    throw error;
  }
}

/** Reads a permission policy from an already parsed config object. */
export async function parsePolicy(value: unknown, source = CONFIG_FILE): Promise<Result<PermissionPolicy>> {
  const config = await parseConfig(value, source);
  return config.ok ? { ok: true, value: config.value.policy } : config;
}

/**
 * One folder's config file, parsed; null when the folder has none. `file` names it in messages.
 * On the disk it is read again only when stat says it changed (a warm host reads it per call).
 */
function readConfigFile(dir: string, file: string, fs: ConfigFs): Promise<Result<PatchsmithConfig | null>> {
  const path = join(dir, CONFIG_FILE);
  if (fs !== diskConfigFs && fs.disk !== true) return readConfigAt(path, file, fs);
  const absent = (): Result<PatchsmithConfig | null> => ({ ok: true, value: null });
  return memoByStat(path, { read: () => readConfigAt(path, file, fs), absent, key: `${path}\0${file}` });
}

async function readConfigAt(
  path: string,
  file: string,
  fs: ConfigFs,
): Promise<Result<PatchsmithConfig | null>> {
  let text: string;
  try {
    text = await readConfigText(fs, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: null };
    return configError(`cannot read it: ${(error as Error).message}`, file);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return configError(`not valid JSON: ${(error as Error).message}`, file);
  }
  return parseConfigAs(json, file, file);
}

/** The folders strictly above `root` up to the top of the repository that holds it, nearest first. */
async function foldersUpToRepositoryTop(root: string, fs: ConfigFs): Promise<string[]> {
  if (fs.stat === undefined) return [];
  const { workTree } = await locateStateDir(root, { stat: fs.stat.bind(fs), readFile: fs.readFile.bind(fs) });
  if (workTree === null) return [];
  const folders: string[] = [];
  let rel = relative(workTree, root);
  while (rel !== '' && !rel.startsWith('..')) {
    const cut = rel.lastIndexOf(sep);
    rel = cut === -1 ? '' : rel.slice(0, cut);
    folders.push(join(workTree, rel));
  }
  return folders;
}

/**
 * The root's `.patchsmith.json`, or the defaults (no rules: allow everything; no diagnostics) when
 * there is none. Most roots have none, so the schema library is loaded only when one exists.
 * A file that is not JSON or does not fit the schema is a `PARSE_ERROR` naming the config.
 *
 * A root inside a repository (run from a subfolder, `--cwd sub`) also keeps the rules of every
 * `.patchsmith.json` above it up to the repository's top (`enclosing`, each decided on the path as
 * seen from its own folder): working in a subfolder never lifts a rule of the repository's.
 */
export async function loadConfig(
  root: string,
  fs: ConfigFs = diskConfigFs,
): Promise<Result<PatchsmithConfig>> {
  const own = await readConfigFile(root, CONFIG_FILE, fs);
  if (!own.ok) return own;
  const config = own.value ?? { policy: { rules: [], source: CONFIG_FILE }, diagnostics: false };
  const enclosing: EnclosingRules[] = [];
  for (const folder of await foldersUpToRepositoryTop(root, fs)) {
    const file = `${relative(root, folder).split(sep).join('/')}/${CONFIG_FILE}`;
    const outer = await readConfigFile(folder, file, fs);
    if (!outer.ok) return outer;
    if (outer.value === null || outer.value.policy.rules.length === 0) continue;
    const prefix = relative(folder, root).split(sep).join('/');
    enclosing.push({ rules: outer.value.policy.rules, source: file, prefix });
  }
  return enclosing.length === 0
    ? { ok: true, value: config }
    : { ok: true, value: { ...config, policy: { ...config.policy, enclosing } } };
}

/** The permission policy of a root (its `.patchsmith.json`, or none). */
export async function loadPolicy(root: string, fs?: ConfigFs): Promise<Result<PermissionPolicy>> {
  const config = await loadConfig(root, fs);
  return config.ok ? { ok: true, value: config.value.policy } : config;
}

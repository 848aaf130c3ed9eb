import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { EditError, Result } from './errors.js';
import type { FormatEntries } from './format-entries.js';
import { CONFIG_FILE } from './path-policy.js';
import type { PermissionPolicy } from './permission-rules.js';

export interface PatchsmithConfig {
  policy: PermissionPolicy;
  /** Run language-server diagnostics after every apply, as if `--diagnostics` were given. */
  diagnostics: boolean;
  /** The `format` section, when the config has one (run only when the host opts in). */
  format?: FormatEntries;
}

/** The one call a config read needs; `node:fs/promises` satisfies it. */
export interface ConfigFs {
  readFile(path: string, encoding: 'utf8'): Promise<string>;
}

/** A config is a few rules; anything larger is not one (and a hostile tree may link it to /dev/zero). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Reads the config from the disk without trusting what the name is: only a regular file (a FIFO
 * would block forever, a device never end), at most MAX_CONFIG_BYTES, opened without blocking.
 */
const diskConfigFs: ConfigFs = {
  async readFile(path) {
    const { constants } = await import('node:fs');
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw Object.assign(new Error('it is not a regular file'), { code: 'EINVAL' });
      if (stats.size > MAX_CONFIG_BYTES) {
        throw Object.assign(new Error(`it is larger than ${MAX_CONFIG_BYTES} bytes`), { code: 'EFBIG' });
      }
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  },
};

function configError(message: string): Result<never> {
  const error: EditError = { code: 'PARSE_ERROR', message: `${CONFIG_FILE}: ${message}`, path: CONFIG_FILE };
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
  const { configSchema } = await import('./config-schema.js');
  const parsed = configSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (i) => `${i.path.join('.') || '(top level)'}: ${describeIssue(i)}`,
    );
    return configError(issues.join('; '));
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

/** Reads a permission policy from an already parsed config object. */
export async function parsePolicy(value: unknown, source = CONFIG_FILE): Promise<Result<PermissionPolicy>> {
  const config = await parseConfig(value, source);
  return config.ok ? { ok: true, value: config.value.policy } : config;
}

/**
 * The root's `.patchsmith.json`, or the defaults (no rules: allow everything; no diagnostics) when
 * there is none. Most roots have none, so the schema library is loaded only when one exists.
 * A file that is not JSON or does not fit the schema is a `PARSE_ERROR` naming the config.
 */
export async function loadConfig(
  root: string,
  fs: ConfigFs = diskConfigFs,
): Promise<Result<PatchsmithConfig>> {
  let text: string;
  try {
    text = await fs.readFile(join(root, CONFIG_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { ok: true, value: { policy: { rules: [], source: CONFIG_FILE }, diagnostics: false } };
    }
    return configError(`cannot read it: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return configError(`not valid JSON: ${(error as Error).message}`);
  }
  return parseConfig(json);
}

/** The permission policy of a root (its `.patchsmith.json`, or none). */
export async function loadPolicy(root: string, fs?: ConfigFs): Promise<Result<PermissionPolicy>> {
  const config = await loadConfig(root, fs);
  return config.ok ? { ok: true, value: config.value.policy } : config;
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EditError, Result } from '@patchsmith/grammar';
import type { PermissionPolicy } from './permission.js';

/** The config file, at the root: permission rules, and whether diagnostics run by default. */
export const CONFIG_FILE = '.patchsmith.json';


export interface PatchsmithConfig {
  policy: PermissionPolicy;
  /** Run language-server diagnostics after every apply, as if `--diagnostics` were given. */
  diagnostics: boolean;
}

function configError(message: string): Result<never> {
  const error: EditError = { code: 'PARSE_ERROR', message: `${CONFIG_FILE}: ${message}`, path: CONFIG_FILE };
  return { ok: false, errors: [error] };
}

/** Reads a config from an already parsed object, validated by the zod schema (loaded only then). */
export async function parseConfig(value: unknown, source = CONFIG_FILE): Promise<Result<PatchsmithConfig>> {
  const { configSchema } = await import('./config-schema.js');
  const parsed = configSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    return configError(issues.join('; '));
  }
  return {
    ok: true,
    value: { policy: { rules: parsed.data.permissions, source }, diagnostics: parsed.data.diagnostics },
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
 */
export async function loadConfig(root: string): Promise<Result<PatchsmithConfig>> {
  let text: string;
  try {
    text = await readFile(join(root, CONFIG_FILE), 'utf8');
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

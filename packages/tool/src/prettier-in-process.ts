import { lstat, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isInsidePath } from '@patchsmith/core';
import { type FormatOutcome, firstLine } from './run-format-command.js';

/** The part of prettier's API (2 and 3) used here. */
interface Prettier {
  /** Configs are cached by prettier; a long-lived host must see a config edited since. */
  clearConfigCache?(): void | Promise<void>;
  format(text: string, options: Record<string, unknown>): string | Promise<string>;
  resolveConfigFile(path: string): Promise<string | null>;
  resolveConfig(path: string, options: { config: string }): Promise<Record<string, unknown> | null>;
  getFileInfo(
    path: string,
    options: { ignorePath: string; plugins: unknown[] },
  ): Promise<{ ignored: boolean; inferredParser: string | null }>;
}

/** Where a root's own prettier is installed: its node_modules only, never a folder above the root. */
export const prettierFolder = (root: string) => join(root, 'node_modules', 'prettier');

/** Whether the root has its own prettier installed. */
export async function hasPrettier(root: string): Promise<boolean> {
  return (await lstat(join(prettierFolder(root), 'package.json')).catch(() => null)) !== null;
}

const loaded = new Map<string, Promise<Prettier>>();

/** The root's prettier (2 or 3; both have a CommonJS entry), loaded once per process (it is the project's code: run only on the host's opt-in). */
function loadPrettier(root: string): Promise<Prettier> {
  const folder = prettierFolder(root);
  let module = loaded.get(folder);
  if (module === undefined) {
    module = (async () => {
      const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { main?: string };
      // Its CommonJS entry, by `require`: the CLI's bundle has no `import()` of a file.
      return createRequire(import.meta.url)(join(folder, manifest.main ?? 'index.js')) as Prettier;
    })();
    loaded.set(folder, module);
  }
  return module;
}

/**
 * Formats a file's new text with the root's prettier, in this process, under the root's prettier
 * config (one found above the root is not used) and `.prettierignore`. Null: prettier leaves the
 * file alone (ignored, or no parser for it).
 */
export async function formatWithPrettier(
  root: string,
  path: string,
  text: string,
): Promise<FormatOutcome | null> {
  const file = join(root, path);
  try {
    const prettier = await loadPrettier(root);
    await prettier.clearConfigCache?.();
    const configFile = await prettier.resolveConfigFile(file);
    const config =
      configFile !== null && isInsidePath(configFile, root)
        ? ((await prettier.resolveConfig(file, { config: configFile })) ?? {})
        : {};
    const plugins = Array.isArray(config.plugins) ? config.plugins : [];
    const info = await prettier.getFileInfo(file, { ignorePath: join(root, '.prettierignore'), plugins });
    if (info.ignored || info.inferredParser === null) return null;
    const formatted = await prettier.format(text, { ...config, filepath: file });
    return { ok: true, bytes: new TextEncoder().encode(formatted) };
  } catch (error) {
    return { ok: false, note: `prettier failed: ${firstLine(String((error as Error)?.message ?? error))}` };
  }
}

import { readFile } from 'node:fs/promises';

const PACKAGE_NAME = '@patchsmith/cli';

/**
 * The CLI's version, from its package.json: the first one named @patchsmith/cli above this module
 * (the bundle and the tsc output sit at different depths). Read only when asked for.
 */
export async function cliVersion(from: string = import.meta.url): Promise<string> {
  for (let url = new URL('./package.json', from); ; url = new URL('../package.json', url)) {
    const text = await readFile(url, 'utf8').catch(() => null);
    if (text !== null) {
      const manifest = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (manifest.name === PACKAGE_NAME && typeof manifest.version === 'string') return manifest.version;
    }
    if (new URL('../package.json', url).href === url.href) return 'unknown';
  }
}

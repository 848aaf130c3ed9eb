import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ServerConfig, ServerTrust } from './types.js';

const ownRequire = createRequire(import.meta.url);

/**
 * tsserver.js of the project's own typescript when the project is trusted and has one, else the
 * one beside patchsmith. Untrusted, the project's typescript is never used: it is its code.
 */
export function findTsserver(projectRoot: string, trust: ServerTrust): string | undefined {
  const candidates = [
    ...(trust.projectServers ? [createRequire(path.join(projectRoot, 'package.json'))] : []),
    ownRequire,
  ];
  for (const req of candidates) {
    try {
      const found = req.resolve('typescript/lib/tsserver.js');
      if (existsSync(found)) return found;
    } catch {
      // not installed there; try the next place
    }
  }
  return undefined;
}

export const TYPESCRIPT_SERVER: ServerConfig = {
  name: 'typescript',
  command: 'typescript-language-server',
  args: ['--stdio'],
  npmPackage: { name: 'typescript-language-server', bin: 'typescript-language-server' },
  extensions: ['.ts', '.tsx', '.js', '.jsx', '.mts', '.cts'],
  languageIds: {
    '.ts': 'typescript',
    '.mts': 'typescript',
    '.cts': 'typescript',
    '.tsx': 'typescriptreact',
    '.js': 'javascript',
    '.jsx': 'javascriptreact',
  },
  rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
  // Without a tsserver path, typescript-language-server would take the project's own typescript.
  lacks: (projectRoot, trust) =>
    trust.projectServers || findTsserver(projectRoot, trust) !== undefined
      ? null
      : "no typescript beside patchsmith for typescript-language-server (the project's own is the repository's code, run only when trusted)",
  initializationOptions: (projectRoot: string, trust: ServerTrust) => {
    const tsserverPath = findTsserver(projectRoot, trust);
    return {
      disableAutomaticTypingAcquisition: true,
      ...(tsserverPath ? { tsserver: { path: tsserverPath } } : {}),
    };
  },
  diagnostics: 'tsserver-request',
};

export const PYTHON_SERVER: ServerConfig = {
  name: 'pyright',
  command: 'pyright-langserver',
  args: ['--stdio'],
  npmPackage: { name: 'pyright', bin: 'pyright-langserver' },
  extensions: ['.py', '.pyi'],
  languageIds: { '.py': 'python', '.pyi': 'python' },
  rootMarkers: [
    'pyrightconfig.json',
    'pyproject.toml',
    'setup.py',
    'setup.cfg',
    'requirements.txt',
    'Pipfile',
    '.git',
  ],
  settings: { python: { analysis: { diagnosticMode: 'openFilesOnly' } } },
  diagnostics: 'auto',
};

export const BUILTIN_SERVERS: readonly ServerConfig[] = [TYPESCRIPT_SERVER, PYTHON_SERVER];

/** The servers a session uses: built-ins unless switched off, with configured ones replacing by name. */
export function mergeServers(configured: readonly ServerConfig[] = [], withBuiltins = true): ServerConfig[] {
  const byName = new Map<string, ServerConfig>();
  if (withBuiltins) for (const server of BUILTIN_SERVERS) byName.set(server.name, server);
  for (const server of configured) byName.set(server.name, server);
  return [...byName.values()];
}

/** The server for a file by its extension; a later configured server wins over an earlier one. */
export function serverForFile(servers: readonly ServerConfig[], filePath: string): ServerConfig | undefined {
  const ext = path.extname(filePath).toLowerCase();
  if (!ext) return undefined;
  let chosen: ServerConfig | undefined;
  for (const server of servers) {
    if (server.extensions.some((e) => e.toLowerCase() === ext)) chosen = server;
  }
  return chosen;
}

/** The LSP language id of a file for a server. */
export function languageIdFor(server: ServerConfig, filePath: string): string {
  const ext = path.extname(filePath).toLowerCase();
  return server.languageIds?.[ext] ?? ext.replace(/^\./, '');
}

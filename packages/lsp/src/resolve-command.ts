import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ServerConfig } from './types.js';

const ownRequire = createRequire(import.meta.url);

export interface ResolvedCommand {
  command: string;
  args: string[];
}

export type CommandResolution = { ok: true; value: ResolvedCommand } | { ok: false; searched: string[] };

/** Whether a path is an executable file. */
function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The script of an npm package's bin, resolved from this package's own dependencies. */
function npmBinScript(pkg: { name: string; bin: string }): string | undefined {
  try {
    const manifestPath = ownRequire.resolve(`${pkg.name}/package.json`);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      bin?: string | Record<string, string>;
    };
    const rel = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[pkg.bin];
    return rel ? path.join(path.dirname(manifestPath), rel) : undefined;
  } catch {
    return undefined;
  }
}

/** `node_modules/.bin` folders from the project root upwards. */
function binFolders(projectRoot: string): string[] {
  const folders: string[] = [];
  let dir = path.resolve(projectRoot);
  for (;;) {
    folders.push(path.join(dir, 'node_modules', '.bin'));
    const parent = path.dirname(dir);
    if (parent === dir) return folders;
    dir = parent;
  }
}

/**
 * Where a server's binary is: an absolute path as given; else the npm package among this package's
 * dependencies (run with this Node); else the project's node_modules/.bin; else PATH.
 */
export function resolveServerCommand(server: ServerConfig, projectRoot: string): CommandResolution {
  const args = server.args ?? [];
  const searched: string[] = [];
  if (path.isAbsolute(server.command)) {
    if (isExecutable(server.command)) return { ok: true, value: { command: server.command, args } };
    return { ok: false, searched: [server.command] };
  }
  if (server.npmPackage) {
    const script = npmBinScript(server.npmPackage);
    if (script) return { ok: true, value: { command: process.execPath, args: [script, ...args] } };
    searched.push(`npm package ${server.npmPackage.name}`);
  }
  const pathDirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of [...binFolders(projectRoot), ...pathDirs]) {
    const candidate = path.join(dir, server.command);
    if (isExecutable(candidate)) return { ok: true, value: { command: candidate, args } };
  }
  searched.push('node_modules/.bin of the project', 'PATH');
  return { ok: false, searched };
}

import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ServerConfig, ServerTrust } from './types.js';

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

/**
 * The script of an npm package's bin, resolved from where this code is installed: the packages
 * beside patchsmith (its own node_modules and the ones above it, such as a global install's).
 */
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

/** PATH with its relative folders left out: they would be looked up from the project root. */
export function absolutePath(envPath: string): string {
  return envPath
    .split(path.delimiter)
    .filter((dir) => path.isAbsolute(dir))
    .join(path.delimiter);
}

/** The first folder of `folders` holding `command` as an executable, as its full path. */
function findIn(folders: readonly string[], command: string): string | undefined {
  return folders.map((dir) => path.join(dir, command)).find(isExecutable);
}

const UNTRUSTED_NOTE = "the project's node_modules/.bin is the repository's code, run only when trusted";

/**
 * Where a server's binary is: an absolute path as given; else the npm package beside patchsmith
 * (run with this Node); else, for a trusted project only, its node_modules/.bin (from the project
 * root upwards); else PATH (its absolute folders). A binary the project planted is never run
 * untrusted: `searched` then says it was found and not run.
 */
export function resolveServerCommand(
  server: ServerConfig,
  projectRoot: string,
  trust: ServerTrust = { projectServers: false },
): CommandResolution {
  const args = server.args ?? [];
  const searched: string[] = [];
  if (path.isAbsolute(server.command)) {
    if (isExecutable(server.command)) return { ok: true, value: { command: server.command, args } };
    return { ok: false, searched: [server.command] };
  }
  if (server.npmPackage) {
    const script = npmBinScript(server.npmPackage);
    if (script) return { ok: true, value: { command: process.execPath, args: [script, ...args] } };
    searched.push(`npm package ${server.npmPackage.name} beside patchsmith`);
  }
  const inProject = findIn(binFolders(projectRoot), server.command);
  if (trust.projectServers && inProject) return { ok: true, value: { command: inProject, args } };
  const onPath = findIn(
    absolutePath(process.env.PATH ?? '')
      .split(path.delimiter)
      .filter(Boolean),
    server.command,
  );
  if (onPath) return { ok: true, value: { command: onPath, args } };
  if (trust.projectServers) searched.push('node_modules/.bin of the project');
  searched.push('PATH');
  if (!trust.projectServers && inProject) searched.push(`${inProject} (not run: ${UNTRUSTED_NOTE})`);
  return { ok: false, searched };
}

import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTransport } from '../spawn-transport.js';
import type { ServerConfig, ServerTransport, TransportFactory } from '../types.js';

export const FIXTURES = path.dirname(fileURLToPath(import.meta.url));

export async function tempProject(prefix: string, files: Record<string, string> = {}): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `patchsmith-lsp-${prefix}-`)));
  for (const [name, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), text);
  }
  return dir;
}

/** Leaves the new content on disk, as an apply would, and returns the edit to report on. */
export async function edited(file: string, before: string | null, after: string) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, after);
  return { path: file, before, after };
}

/** The line-server fixture as a configured server for `.txt` files. */
export function lineServer(flags: string[] = [], extra: Partial<ServerConfig> = {}): ServerConfig {
  return {
    name: 'line',
    command: process.execPath,
    args: [path.join(FIXTURES, 'line-server.mjs'), ...flags],
    extensions: ['.txt'],
    ...extra,
  };
}

/** The default transport, remembering every server process it started. */
export function recordingFactory(): { factory: TransportFactory; started: ServerTransport[] } {
  const started: ServerTransport[] = [];
  return {
    started,
    factory: async (request) => {
      const transport = await spawnTransport(request);
      started.push(transport);
      return transport;
    },
  };
}

/**
 * Whether any living process (zombies are dead, only not yet reaped) belongs to the process group
 * led by `pid`. Reads /proc; where there is none, asks the kernel about the group as a whole.
 */
export function groupAlive(pid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  for (const entry of entries) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesised command: state, ppid, pgrp, ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

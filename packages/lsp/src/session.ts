import path from 'node:path';
import { PatchsmithError } from '@patchsmith/core';
import { mergeServers } from './builtin-servers.js';
import { collectWith } from './collect-diagnostics.js';
import { LanguageServerClient, type StartResult } from './language-server-client.js';
import { spawnTransport } from './spawn-transport.js';
import type {
  DiagnosticsSession,
  DiagnosticsSessionOptions,
  EditedFile,
  FileDiagnostics,
  ServerConfig,
  ServerTrust,
} from './types.js';

export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_SETTLE_MS = 300;
export const DEFAULT_MAX_PER_FILE = 20;

/**
 * A set of language servers for one root, started on demand per (server, project root) and kept warm
 * across `collect` calls until `dispose`.
 */
export function createDiagnosticsSession(options: DiagnosticsSessionOptions): DiagnosticsSession {
  const root = path.resolve(options.root);
  const servers = mergeServers(options.servers, options.builtinServers ?? true);
  const transportFactory = options.transportFactory ?? spawnTransport;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const trust: ServerTrust = { projectServers: options.projectServers ?? false };
  const pool = new Map<string, Promise<StartResult>>();
  let queue: Promise<unknown> = Promise.resolve();
  let disposed = false;

  function client(server: ServerConfig, projectRoot: string): Promise<StartResult> {
    const key = `${server.name}\0${projectRoot}`;
    const warm = pool.get(key);
    if (warm) return warm;
    const startedAt = Date.now();
    const shown = path.basename(server.command);
    options.onProgress?.(`starting ${shown}…`);
    const starting = LanguageServerClient.start(
      server,
      projectRoot,
      transportFactory,
      server.timeoutMs ?? timeoutMs,
      trust,
    );
    pool.set(key, starting);
    starting.then((result) => {
      const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
      options.onProgress?.(
        result.ok ? `${shown} ready (${seconds} s)` : `${shown}: ${result.status} (${seconds} s)`,
      );
      // Failures are not kept: the next call tries again (the binary may have been installed since).
      if (!result.ok) {
        if (pool.get(key) === starting) pool.delete(key);
        return;
      }
      result.client.gone.then(() => {
        if (pool.get(key) === starting) pool.delete(key);
        // What the dead server started (tsserver, workers) goes with it.
        return result.client.shutdown();
      });
    });
    return starting;
  }

  const ctx = {
    root,
    servers,
    timeoutMs,
    settleMs: options.settleMs ?? DEFAULT_SETTLE_MS,
    maxPerFile: options.maxPerFile ?? DEFAULT_MAX_PER_FILE,
    dependents: options.dependents ?? true,
    client,
  };

  return {
    root,
    collect(edits: readonly EditedFile[]): Promise<FileDiagnostics[]> {
      if (disposed) {
        return Promise.reject(new PatchsmithError('IO_ERROR', 'the diagnostics session was disposed'));
      }
      // One collection at a time: two would open the same documents under each other.
      const run = queue.then(() => collectWith(ctx, edits));
      queue = run.catch(() => {});
      return run;
    },
    async dispose({ now = false }: { now?: boolean } = {}): Promise<void> {
      disposed = true;
      if (!now) await queue;
      const starts = [...pool.values()];
      pool.clear();
      const results = await Promise.all(starts);
      await Promise.all(results.map((result) => (result.ok ? result.client.shutdown() : undefined)));
    },
  };
}

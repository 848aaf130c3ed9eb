import { type ChildProcess, spawn } from 'node:child_process';
import { StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { absolutePath, resolveServerCommand } from './resolve-command.js';
import type { ServerTransport, TransportRequest } from './types.js';

const STDERR_TAIL_CHARS = 2000;

/** Server process groups still alive, so that a host which exits without disposing leaves none. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const pid of liveGroups) killGroup(pid);
  });
}

/** An error that tells the session the server binary is not there. */
export function serverMissingError(message: string): Error & { code: 'ENOENT' } {
  return Object.assign(new Error(message), { code: 'ENOENT' as const });
}

/** Waits until the process either started or failed to start. */
function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', reject);
  });
}

/**
 * The default transport: spawns the server in its own process group (so that it and everything it
 * forks, such as tsserver, can be ended together) with the project root as working directory, and
 * speaks LSP over its stdio.
 */
export async function spawnTransport(request: TransportRequest): Promise<ServerTransport> {
  const { server, projectRoot, trust } = request;
  const resolved = resolveServerCommand(server, projectRoot, trust);
  if (!resolved.ok) {
    throw serverMissingError(`${server.command} not found (looked in ${resolved.searched.join(', ')})`);
  }
  const child = spawn(resolved.value.command, resolved.value.args, {
    cwd: projectRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
    // A relative PATH folder would be looked up from the project root: the repository's own files.
    env: {
      ...process.env,
      ...(process.env.PATH !== undefined && { PATH: absolutePath(process.env.PATH) }),
      ...server.env,
    },
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  // A server that dies makes writes fail with EPIPE; the exit is reported through `exited`.
  child.stdin?.on('error', () => {});
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      resolve(signal ? `killed by ${signal}` : `exited with code ${code}`);
    });
    child.once('error', (err) => resolve(`failed: ${err.message}`));
  });
  try {
    await started(child);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES') {
      throw serverMissingError(`${resolved.value.command} could not be started: ${(err as Error).message}`);
    }
    throw err;
  }
  const pid = child.pid as number;
  liveGroups.add(pid);
  installExitHook();
  return {
    reader: new StreamMessageReader(child.stdout!),
    writer: new StreamMessageWriter(child.stdin!),
    exited,
    pid,
    kill() {
      // Even after the leader exited, its children may still hold the group.
      killGroup(pid);
      liveGroups.delete(pid);
    },
    stderrTail: () => stderr,
  };
}

/** What a formatter run gave: the formatted text, or why there is none. */
export type FormatOutcome = { ok: true; bytes: Uint8Array } | { ok: false; note: string };

/** A formatter's output larger than this is not a formatted source file; the run is stopped. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** The first line of what a failing formatter said, short enough for a report. */
export function firstLine(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * The path as an argument: a name that starts with `-` would read as an option, so it gets `./`.
 * Paths are never given to a shell; the command is an argv array.
 */
function pathArgument(path: string): string {
  return path.startsWith('-') ? `./${path}` : path;
}

/** The command with `{path}` in its arguments replaced by the file's root-relative path. */
export function commandFor(command: readonly string[], path: string): string[] {
  return command.map((arg, i) => (i === 0 ? arg : arg.replaceAll('{path}', pathArgument(path))));
}

/** Kills the formatter and whatever it started (it runs as its own process group). */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Runs a format command in the root: the text on its stdin, the formatted text from its stdout.
 * A command that cannot start, exits non-zero, is killed, writes too much or outlives `timeoutMs`
 * is a failure with a note saying which, never an exception.
 */
export async function runFormatCommand(
  argv: readonly string[],
  text: string,
  { root, timeoutMs }: { root: string; timeoutMs: number },
): Promise<FormatOutcome> {
  const [file, ...args] = argv;
  const name = file ?? '';
  // Loaded here, not at the top: node:child_process (with net and dgram) costs ~12 M instructions
  // of every start-up, and only a configured format command needs it.
  const { spawn } = await import('node:child_process');
  return new Promise((resolve) => {
    const child = spawn(name, args, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let failure: string | null = null;
    const stop = (note: string) => {
      failure ??= note;
      killGroup(child.pid);
    };
    const timer = setTimeout(() => stop(`${name} did not finish within ${timeoutMs} ms`), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) stop(`${name} wrote more than ${MAX_OUTPUT_BYTES} bytes`);
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 64) err.push(chunk);
    });
    // A formatter that exits without reading all of its input closes the pipe under us.
    child.stdin.on('error', () => {});
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const why = error.code === 'ENOENT' ? 'not found' : error.message;
      resolve({ ok: false, note: `format command ${name}: ${why}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Started children may still hold the group; they have nothing more to give.
      killGroup(child.pid);
      if (failure !== null) return resolve({ ok: false, note: failure });
      if (code !== 0) {
        const said = firstLine(Buffer.concat(err).toString('utf8'));
        const how = signal === null ? `exited with ${code}` : `was killed by ${signal}`;
        return resolve({ ok: false, note: `${name} ${how}${said ? `: ${said}` : ''}` });
      }
      resolve({ ok: true, bytes: new Uint8Array(Buffer.concat(out)) });
    });
    child.stdin.end(text);
  });
}

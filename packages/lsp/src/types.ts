import type { MessageReader, MessageWriter } from 'vscode-jsonrpc/node';
import type { Range } from 'vscode-languageserver-protocol';

/** How the client learns a document's diagnostics from a server. */
export type DiagnosticsMode =
  /** `textDocument/diagnostic` when the server offers it, else `textDocument/publishDiagnostics`. */
  | 'auto'
  | 'pull'
  | 'push'
  /**
   * typescript-language-server only: ask tsserver itself (`syntacticDiagnosticsSync` and
   * `semanticDiagnosticsSync` through the `typescript.tsserverRequest` command). Its pushes carry no
   * version and are skipped when a clean file stays clean, so waiting for them cannot tell "clean"
   * from "not done yet".
   */
  | 'tsserver-request';

/** One language server the session may start. */
export interface ServerConfig {
  /** Unique name; a configured server with a built-in's name replaces the built-in. */
  name: string;
  /**
   * A binary name (looked up among the npm packages beside patchsmith, then PATH; the project's
   * node_modules/.bin only when the project is trusted, see `ServerTrust`) or an absolute path.
   */
  command: string;
  args?: string[];
  /** Where to find the binary among npm packages: run `bin` of `package` with this Node. */
  npmPackage?: { name: string; bin: string };
  /** File extensions with the dot, e.g. `.ts`. Matched case-insensitively. */
  extensions: string[];
  /** LSP language id per extension; defaults to the extension without its dot. */
  languageIds?: Record<string, string>;
  /** Files whose nearest ancestor folder holding one of these is the server's project root. */
  rootMarkers?: string[];
  /** Sent with `initialize`; a function receives the project root and how far the project is trusted. */
  initializationOptions?: unknown | ((projectRoot: string, trust: ServerTrust) => unknown);
  /**
   * What the server lacks to run for this project without running the project's own code (a
   * message), or null when it can run: checked before it starts; a lack reads as `server-missing`.
   */
  lacks?: (projectRoot: string, trust: ServerTrust) => string | null;
  /** Answers `workspace/configuration`, by dotted section (`python.analysis` looks up `settings.python.analysis`). */
  settings?: Record<string, unknown>;
  diagnostics?: DiagnosticsMode;
  /** Longest wait for any one answer of this server (start, initialize, a diagnostics result). */
  timeoutMs?: number;
  env?: Record<string, string>;
}

/**
 * How far a project's own files may be run. A repository may be hostile: its
 * `node_modules/.bin/typescript-language-server` or `node_modules/typescript` is code from it, and
 * runs only when the host (never the repository) says so.
 */
export interface ServerTrust {
  /** Run the servers (and the TypeScript) the project installed in its node_modules. */
  projectServers: boolean;
}

/** What a transport factory is asked to connect to. */
export interface TransportRequest {
  server: ServerConfig;
  projectRoot: string;
  trust: ServerTrust;
}

/** A live byte channel to one server process (or anything that speaks LSP). */
export interface ServerTransport {
  reader: MessageReader;
  writer: MessageWriter;
  /** Settles when the server is gone, with a short description of how it ended. */
  exited: Promise<string>;
  /** Ends the server and everything it started, at once. Safe to call more than once. */
  kill(): void;
  /** The last lines the server wrote to stderr, for crash notes. */
  stderrTail?(): string;
  /** Process id (and process group id) of the server, when it is a process. */
  pid?: number;
}

/**
 * Connects to a server. Throw an error whose `code` is `'ENOENT'` when the server's binary does not
 * exist (the file's status becomes `server-missing`); any other throw reads as `crashed`.
 */
export type TransportFactory = (request: TransportRequest) => Promise<ServerTransport>;

/** One file as an apply left it: its absolute path, its content before (null when it was created), after. */
export interface EditedFile {
  path: string;
  before: string | null;
  after: string;
}

export type DiagnosticsStatus = 'ok' | 'timeout' | 'no-server' | 'server-missing' | 'crashed';

/** A diagnostic as reported: 0-based line and character, as LSP gives them. */
export interface FileDiagnostic {
  range: Range;
  severity: number;
  code?: string | number;
  source?: string;
  message: string;
}

export interface FileDiagnostics {
  path: string;
  status: DiagnosticsStatus;
  /** Errors the edit introduced, in file order, at most `maxPerFile`. */
  diagnostics: FileDiagnostic[];
  /** How many more new errors there were beyond those listed. */
  omitted: number;
  /** Why the status is not `ok`. */
  note?: string;
  /** Name of the server that handled the file, when one did. */
  server?: string;
  /** Not edited: the file imports an edited one, and the edit introduced these errors in it. */
  dependent?: true;
}

export interface DiagnosticsSessionOptions {
  /** Absolute root of the work (the apply's root); project roots are looked for below it. */
  root: string;
  /** Servers besides the built-ins; one with a built-in's name replaces it. */
  servers?: ServerConfig[];
  /** Leave out the built-in TypeScript and Python servers. */
  builtinServers?: boolean;
  /** Default per-server timeout (ms) for servers that set none. */
  timeoutMs?: number;
  transportFactory?: TransportFactory;
  /** How long to wait for further pushes after an unversioned one (ms). */
  settleMs?: number;
  /** New errors listed per file before the rest are only counted. */
  maxPerFile?: number;
  /** Also report new errors in the files that import an edited one (default true). */
  dependents?: boolean;
  /** Told what takes time while it happens: `starting typescript-language-server…`, then how long it took. */
  onProgress?: (message: string) => void;
  /**
   * Run the language servers and the TypeScript installed in the project's own node_modules
   * (default false: only those beside patchsmith and on PATH). A host setting, for a project the
   * user trusts; never read from the project.
   */
  projectServers?: boolean;
}

export interface DiagnosticsSession {
  readonly root: string;
  /**
   * New errors per edited file. Every input path gets exactly one result, in input order; then
   * one per importing file where the edit introduced errors (`dependent: true`).
   */
  collect(edits: readonly EditedFile[]): Promise<FileDiagnostics[]>;
  /**
   * Shuts every server down; no server process is left afterwards. With `now`, a collection still
   * running is not waited for (its servers are shut down under it): a caller's time ran out.
   */
  dispose(options?: { now?: boolean }): Promise<void>;
}

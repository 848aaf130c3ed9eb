import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, type MessageConnection, ResponseError } from 'vscode-jsonrpc/node';
import {
  type ConfigurationParams,
  type DocumentDiagnosticReport,
  type InitializeResult,
  LSPErrorCodes,
  type Diagnostic as LspDiagnostic,
  type PublishDiagnosticsParams,
  type RegistrationParams,
  type ServerCapabilities,
  type Unregistration,
  type UnregistrationParams,
} from 'vscode-languageserver-protocol';
import { type TsserverDiagnostic, tsserverToLsp } from './tsserver-diagnostics.js';
import type { ServerConfig, ServerTransport, ServerTrust, TransportFactory } from './types.js';

/** The protocol's field name carries a historical typo (`unregisterations`); some servers send the fixed spelling. */
type FixedUnregistrationParams = Partial<UnregistrationParams> & { unregistrations?: Unregistration[] };

/** The outcome of waiting on a server: its answer, or why there is none. */
export type Waited<T> = { ok: true; value: T } | { ok: false; status: 'timeout' | 'crashed'; note: string };

export type StartResult =
  | { ok: true; client: LanguageServerClient }
  | { ok: false; status: 'server-missing' | 'timeout' | 'crashed'; note: string };

interface StoredPublish {
  seq: number;
  version: number | null;
  diagnostics: LspDiagnostic[];
}

interface PublishWaiter {
  key: string;
  accept: (publish: StoredPublish) => boolean;
  resolve: (publish: StoredPublish | undefined) => void;
}

const SHUTDOWN_TIMEOUT_MS = 2000;
const EXIT_GRACE_MS = 1000;
const RETRY_DELAY_MS = 50;
const CLOSE_TO_EXIT_MS = 1000;

// Unref'd: a timer that lost a race (a connect that answered first) must not keep a one-shot
// process alive for the rest of its timeout. Live server pipes keep the loop running while needed.
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** A stable key for a document URI, so that a server's re-encoding of the URI still matches. */
export function documentKey(uri: string): string {
  try {
    return path.resolve(fileURLToPath(uri));
  } catch {
    return uri;
  }
}

/** The value of a dotted `workspace/configuration` section in the settings, or null when unset. */
export function settingsSection(
  settings: Record<string, unknown> | undefined,
  section: string | undefined,
): unknown {
  if (!settings) return null;
  if (!section) return settings;
  let value: unknown = settings;
  for (const part of section.split('.')) {
    if (value === null || typeof value !== 'object' || !(part in value)) return null;
    value = (value as Record<string, unknown>)[part];
  }
  return value ?? null;
}

/** Whether a request failed only because the server's state moved on, so asking again is right. */
function isRetryable(err: unknown): boolean {
  return (
    err instanceof ResponseError &&
    (err.code === LSPErrorCodes.ServerCancelled || err.code === LSPErrorCodes.ContentModified)
  );
}

/** Whether a factory failure means the binary is missing. */
function isMissingBinary(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'ENOENT';
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * One running language server for one project root: initialised, answering the server's requests,
 * keeping its pushed diagnostics, and reading a document's diagnostics for a given version.
 */
export class LanguageServerClient {
  readonly server: ServerConfig;
  readonly projectRoot: string;
  /** Settles with a description once the server process or its connection is gone. */
  readonly gone: Promise<string>;
  private readonly transport: ServerTransport;
  private readonly connection: MessageConnection;
  private capabilities: ServerCapabilities = {};
  private readonly registrations = new Map<string, string>();
  private readonly publishes = new Map<string, StoredPublish>();
  private readonly waiters = new Set<PublishWaiter>();
  private readonly versions = new Map<string, number>();
  private readonly open = new Set<string>();
  private publishSeq = 0;
  private announcePull: () => void = () => {};
  /** Settles once the server registers `textDocument/diagnostic` (pyright does so after `initialized`). */
  private readonly pullRegistered = new Promise<void>((resolve) => {
    this.announcePull = resolve;
  });
  private goneNote: string | undefined;
  private shutDown = false;

  private constructor(
    server: ServerConfig,
    projectRoot: string,
    transport: ServerTransport,
    private readonly trust: ServerTrust,
  ) {
    this.server = server;
    this.projectRoot = projectRoot;
    this.transport = transport;
    this.connection = createMessageConnection(transport.reader, transport.writer);
    let markGone: (note: string) => void = () => {};
    this.gone = new Promise<string>((resolve) => {
      markGone = (note) => {
        if (this.goneNote !== undefined) return;
        this.goneNote = note;
        for (const waiter of this.waiters) waiter.resolve(undefined);
        this.waiters.clear();
        resolve(note);
      };
    });
    transport.exited.then(
      (note) => markGone(note),
      (err) => markGone(errorText(err)),
    );
    // The stream usually closes just before the exit is reported; prefer the exit's description.
    this.connection.onClose(() => {
      Promise.race([transport.exited, delay(CLOSE_TO_EXIT_MS).then(() => 'closed its connection')]).then(
        markGone,
        () => markGone('closed its connection'),
      );
    });
    // Errors on the wire surface as a closed connection or a failed request.
    this.connection.onError(() => {});
    this.registerHandlers();
    this.connection.listen();
  }

  /** Starts a server over a transport and initialises it, within the timeout. */
  static async start(
    server: ServerConfig,
    projectRoot: string,
    transportFactory: TransportFactory,
    timeoutMs: number,
    trust: ServerTrust,
  ): Promise<StartResult> {
    const lack = server.lacks?.(projectRoot, trust) ?? null;
    if (lack !== null) return { ok: false, status: 'server-missing', note: lack };
    let transport: ServerTransport;
    const connecting = transportFactory({ server, projectRoot, trust });
    try {
      const raced = await Promise.race([connecting, delay(timeoutMs).then(() => undefined)]);
      if (!raced) {
        connecting.then(
          (late) => late.kill(),
          () => {},
        );
        return { ok: false, status: 'timeout', note: `${server.name} did not start within ${timeoutMs} ms` };
      }
      transport = raced;
    } catch (err) {
      if (isMissingBinary(err)) return { ok: false, status: 'server-missing', note: errorText(err) };
      return { ok: false, status: 'crashed', note: `${server.name} could not be started: ${errorText(err)}` };
    }
    const client = new LanguageServerClient(server, projectRoot, transport, trust);
    const init = await client.initialize(timeoutMs);
    if (!init.ok) {
      // A server that did not initialise will not answer `shutdown` either.
      await client.shutdown({ graceful: false });
      return init;
    }
    return { ok: true, client };
  }

  get isAlive(): boolean {
    return this.goneNote === undefined && !this.shutDown;
  }

  /** Sequence number of the latest push, so a wait can ask for pushes after a change. */
  get lastPublish(): number {
    return this.publishSeq;
  }

  isOpen(uri: string): boolean {
    return this.open.has(documentKey(uri));
  }

  private registerHandlers(): void {
    const conn = this.connection;
    conn.onRequest('workspace/configuration', (params: ConfigurationParams) =>
      params.items.map((item) => settingsSection(this.server.settings, item.section)),
    );
    conn.onRequest('client/registerCapability', (params: RegistrationParams) => {
      for (const reg of params.registrations ?? []) this.registrations.set(reg.id, reg.method);
      if (this.offersPull()) this.announcePull();
      return null;
    });
    conn.onRequest('client/unregisterCapability', (params: FixedUnregistrationParams) => {
      // The protocol's field name carries a historical typo; accept both spellings.
      for (const reg of params.unregisterations ?? params.unregistrations ?? [])
        this.registrations.delete(reg.id);
      return null;
    });
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onRequest('workspace/workspaceFolders', () => [this.workspaceFolder()]);
    conn.onRequest('window/showMessageRequest', () => null);
    conn.onRequest('window/showDocument', () => ({ success: false }));
    conn.onRequest('workspace/applyEdit', () => ({ applied: false }));
    conn.onRequest('workspace/diagnostic/refresh', () => null);
    conn.onRequest('workspace/semanticTokens/refresh', () => null);
    conn.onRequest('workspace/inlayHint/refresh', () => null);
    conn.onRequest('workspace/codeLens/refresh', () => null);
    conn.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) =>
      this.recordPublish(params),
    );
  }

  private workspaceFolder(): { uri: string; name: string } {
    return {
      uri: pathToFileURL(this.projectRoot).href,
      name: path.basename(this.projectRoot) || this.projectRoot,
    };
  }

  private recordPublish(params: PublishDiagnosticsParams): void {
    const key = documentKey(params.uri);
    const stored: StoredPublish = {
      seq: ++this.publishSeq,
      version: typeof params.version === 'number' ? params.version : null,
      diagnostics: params.diagnostics ?? [],
    };
    this.publishes.set(key, stored);
    for (const waiter of [...this.waiters]) {
      if (waiter.key === key && waiter.accept(stored)) {
        this.waiters.delete(waiter);
        waiter.resolve(stored);
      }
    }
  }

  private initializationOptions(): unknown {
    const options = this.server.initializationOptions;
    return typeof options === 'function' ? options(this.projectRoot, this.trust) : options;
  }

  private async initialize(timeoutMs: number): Promise<Waited<void>> {
    const folder = this.workspaceFolder();
    const params = {
      processId: process.pid,
      clientInfo: { name: 'patchsmith' },
      rootPath: this.projectRoot,
      rootUri: folder.uri,
      workspaceFolders: [folder],
      initializationOptions: this.initializationOptions(),
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        window: { workDoneProgress: true },
        workspace: {
          configuration: true,
          workspaceFolders: true,
          didChangeConfiguration: { dynamicRegistration: true },
          diagnostics: { refreshSupport: false },
        },
        textDocument: {
          synchronization: { dynamicRegistration: false, willSave: false, didSave: false },
          publishDiagnostics: { versionSupport: true, relatedInformation: false },
          diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
        },
      },
      trace: 'off',
    };
    const answer = await this.wait(
      this.connection.sendRequest<InitializeResult>('initialize', params),
      timeoutMs,
      'answer initialize',
    );
    if (!answer.ok) return answer;
    this.capabilities = answer.value?.capabilities ?? {};
    await this.notify('initialized', {});
    await this.notify('workspace/didChangeConfiguration', { settings: this.server.settings ?? {} });
    return { ok: true, value: undefined };
  }

  /** Races a server answer against the timeout and the server's death. */
  async wait<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<Waited<T>> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Waited<T>>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ok: false,
            status: 'timeout',
            note: `${this.server.name} did not ${what} within ${timeoutMs} ms`,
          }),
        timeoutMs,
      );
    });
    const died = this.gone.then(
      (note): Waited<T> => ({ ok: false, status: 'crashed', note: this.crashNote(note) }),
    );
    const done = work.then(
      (value): Waited<T> => ({ ok: true, value }),
      (err): Waited<T> =>
        this.goneNote !== undefined
          ? { ok: false, status: 'crashed', note: this.crashNote(this.goneNote) }
          : {
              ok: false,
              status: 'crashed',
              note: `${this.server.name} failed to ${what}: ${errorText(err)}`,
            },
    );
    try {
      return await Promise.race([done, timeout, died]);
    } finally {
      clearTimeout(timer);
    }
  }

  private crashNote(note: string): string {
    const tail = this.transport.stderrTail?.().trim();
    const lastLines = tail ? tail.split('\n').slice(-3).join(' | ') : '';
    return `${this.server.name} ${note}${lastLines ? ` (stderr: ${lastLines})` : ''}`;
  }

  private async notify(method: string, params: unknown): Promise<void> {
    try {
      await this.connection.sendNotification(method, params);
    } catch {
      // A dead server is reported by the wait that follows.
    }
  }

  /** Opens a document with a fresh version (versions only grow per document) and returns it. */
  async openDocument(uri: string, languageId: string, text: string): Promise<number> {
    const key = documentKey(uri);
    const version = (this.versions.get(key) ?? 0) + 1;
    this.versions.set(key, version);
    this.open.add(key);
    await this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
    return version;
  }

  /** Replaces an open document's whole text and returns its new version. */
  async changeDocument(uri: string, text: string): Promise<number> {
    const key = documentKey(uri);
    const version = (this.versions.get(key) ?? 0) + 1;
    this.versions.set(key, version);
    await this.notify('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    return version;
  }

  async closeDocument(uri: string): Promise<void> {
    const key = documentKey(uri);
    if (!this.open.delete(key)) return;
    this.publishes.delete(key);
    await this.notify('textDocument/didClose', { textDocument: { uri } });
  }

  /** How this client reads diagnostics from its server. */
  diagnosticsMode(): 'pull' | 'push' | 'tsserver-request' {
    const mode = this.server.diagnostics ?? 'auto';
    if (mode !== 'auto') return mode;
    return this.offersPull() ? 'pull' : 'push';
  }

  /** Whether the server offers `textDocument/diagnostic`, statically or by registration. */
  private offersPull(): boolean {
    if (this.capabilities.diagnosticProvider) return true;
    return [...this.registrations.values()].includes('textDocument/diagnostic');
  }

  /**
   * The diagnostics of a document at `version`, which the caller just opened or changed after the
   * push numbered `sincePublish`.
   */
  diagnostics(
    uri: string,
    version: number,
    sincePublish: number,
    timeoutMs: number,
    settleMs: number,
  ): Promise<Waited<LspDiagnostic[]>> {
    const deadline = Date.now() + timeoutMs;
    const mode = this.diagnosticsMode();
    let work: Promise<LspDiagnostic[]>;
    if (mode === 'pull') work = this.pull(uri, deadline);
    else if (mode === 'tsserver-request') work = this.askTsserver(uri);
    else if ((this.server.diagnostics ?? 'auto') === 'push')
      work = this.push(uri, version, sincePublish, settleMs, deadline);
    else {
      // A server may register pull diagnostics just after `initialized`, and then it may never push.
      work = Promise.race([
        this.push(uri, version, sincePublish, settleMs, deadline),
        this.pullRegistered.then(() => this.pull(uri, deadline)),
      ]);
    }
    return this.wait(work, timeoutMs, `report diagnostics for ${fileURLToPath(uri)}`);
  }

  private async pull(uri: string, deadline: number): Promise<LspDiagnostic[]> {
    for (;;) {
      try {
        const report = await this.connection.sendRequest<DocumentDiagnosticReport | null>(
          'textDocument/diagnostic',
          {
            textDocument: { uri },
          },
        );
        // Without a previous result id the server answers a full report; an unchanged one adds nothing.
        return report?.kind === 'full' ? report.items : [];
      } catch (err) {
        if (!isRetryable(err) || Date.now() >= deadline || !this.isAlive) throw err;
        await delay(RETRY_DELAY_MS);
      }
    }
  }

  private async askTsserver(uri: string): Promise<LspDiagnostic[]> {
    const ask = (command: string) =>
      this.connection.sendRequest<unknown>('workspace/executeCommand', {
        command: 'typescript.tsserverRequest',
        arguments: [command, { file: uri }],
      });
    const answers = await Promise.all([ask('syntacticDiagnosticsSync'), ask('semanticDiagnosticsSync')]);
    return answers.flatMap((answer) => tsserverToLsp(tsserverBody(answer)));
  }

  private async push(
    uri: string,
    version: number,
    sincePublish: number,
    settleMs: number,
    deadline: number,
  ): Promise<LspDiagnostic[]> {
    const key = documentKey(uri);
    // Unversioned pushes count only when they came after the change.
    const accept = (p: StoredPublish) =>
      p.version === version || (p.version === null && p.seq > sincePublish);
    const first = await this.nextPublish(key, accept, deadline);
    if (!first) return new Promise<never>(() => {}); // the caller's timeout or crash check answers
    if (first.version === version) return first.diagnostics;
    await delay(settleMs);
    return this.publishes.get(key)?.diagnostics ?? first.diagnostics;
  }

  private nextPublish(
    key: string,
    accept: (p: StoredPublish) => boolean,
    deadline: number,
  ): Promise<StoredPublish | undefined> {
    const stored = this.publishes.get(key);
    if (stored && accept(stored)) return Promise.resolve(stored);
    if (!this.isAlive) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(undefined), Math.max(0, deadline - Date.now())).unref();
      const finish = (publish: StoredPublish | undefined) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(publish);
      };
      const waiter: PublishWaiter = { key, accept, resolve: finish };
      this.waiters.add(waiter);
    });
  }

  /** `shutdown` and `exit`, then ends the process (group) whatever happened. Idempotent. */
  async shutdown(options: { graceful?: boolean } = {}): Promise<void> {
    if (this.shutDown) return;
    this.shutDown = true;
    if (this.goneNote === undefined && options.graceful !== false) {
      const answered = await this.wait(
        this.connection.sendRequest('shutdown'),
        SHUTDOWN_TIMEOUT_MS,
        'shut down',
      );
      if (answered.ok) await this.notify('exit', undefined);
      await Promise.race([this.gone, delay(EXIT_GRACE_MS)]);
    }
    this.transport.kill();
    // Let the process be reaped, so that it is gone, not a zombie, when dispose returns.
    await Promise.race([this.transport.exited, delay(EXIT_GRACE_MS)]);
    for (const waiter of this.waiters) waiter.resolve(undefined);
    this.waiters.clear();
    this.connection.dispose();
  }
}

/** The diagnostics array inside an `executeCommand` answer that carries a tsserver response. */
function tsserverBody(answer: unknown): TsserverDiagnostic[] {
  if (Array.isArray(answer)) return answer as TsserverDiagnostic[];
  const body = (answer as { body?: unknown } | null)?.body;
  return Array.isArray(body) ? (body as TsserverDiagnostic[]) : [];
}

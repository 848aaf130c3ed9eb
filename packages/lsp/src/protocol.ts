/**
 * The few Language Server Protocol shapes this package speaks. Written here on purpose: the full
 * protocol package is large, and a client that only opens, changes, closes documents and reads their
 * diagnostics needs a handful of interfaces.
 */

export interface Position {
  /** 0-based line. */
  line: number;
  /** 0-based UTF-16 code unit offset within the line. */
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface LspDiagnostic {
  range: Range;
  /** 1 error, 2 warning, 3 information, 4 hint. */
  severity?: number;
  code?: string | number;
  source?: string;
  message: string;
}

export interface PublishDiagnosticsParams {
  uri: string;
  version?: number | null;
  diagnostics: LspDiagnostic[];
}

export interface ConfigurationItem {
  scopeUri?: string;
  section?: string;
}

export interface ConfigurationParams {
  items: ConfigurationItem[];
}

export interface Registration {
  id: string;
  method: string;
  registerOptions?: unknown;
}

export interface RegistrationParams {
  registrations: Registration[];
}

export interface Unregistration {
  id: string;
  method: string;
}

export interface UnregistrationParams {
  unregisterations?: Unregistration[];
  unregistrations?: Unregistration[];
}

export interface ServerCapabilities {
  diagnosticProvider?: unknown;
  textDocumentSync?: unknown;
  [capability: string]: unknown;
}

export interface InitializeResult {
  capabilities: ServerCapabilities;
}

/** A `textDocument/diagnostic` answer; without a previous result id the server sends a full report. */
export interface DocumentDiagnosticReport {
  kind: 'full' | 'unchanged';
  resultId?: string;
  items?: LspDiagnostic[];
}

export const DIAGNOSTIC_SEVERITY_ERROR = 1;

/** The server dropped a request because its state moved on; the client may ask again. */
export const SERVER_CANCELLED = -32802;
/** The document changed while the server computed the answer. */
export const CONTENT_MODIFIED = -32801;

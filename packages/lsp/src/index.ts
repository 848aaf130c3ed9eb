export type { Diagnostic as LspDiagnostic, Position, Range } from 'vscode-languageserver-protocol';
export { BUILTIN_SERVERS, PYTHON_SERVER, TYPESCRIPT_SERVER } from './builtin-servers.js';
export { collectDiagnostics } from './collect-diagnostics.js';
export { newErrors } from './new-errors.js';
export { findProjectRoot } from './project-root.js';
export { resolveServerCommand } from './resolve-command.js';
export {
  createDiagnosticsSession,
  DEFAULT_MAX_PER_FILE,
  DEFAULT_SETTLE_MS,
  DEFAULT_TIMEOUT_MS,
} from './session.js';
export { spawnTransport } from './spawn-transport.js';
export type {
  DiagnosticsMode,
  DiagnosticsSession,
  DiagnosticsSessionOptions,
  DiagnosticsStatus,
  EditedFile,
  FileDiagnostic,
  FileDiagnostics,
  ServerConfig,
  ServerTransport,
  ServerTrust,
  TransportFactory,
  TransportRequest,
} from './types.js';

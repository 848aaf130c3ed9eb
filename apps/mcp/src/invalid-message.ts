import { ClientRequestSchema, ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC error response; `id` is null when the message's own id could not be read. */
export interface ErrorReply {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

export function errorReply(id: string | number | null, code: ErrorCode, message: string): ErrorReply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** A JSON object (not an array, not null). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What JSON-RPC allows as a request id. */
function isRequestId(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** A message with a result or an error and no method: a response, which is never answered. */
function isResponse(message: Record<string, unknown>): boolean {
  return !('method' in message) && ('result' in message || 'error' in message);
}

/**
 * The answer JSON-RPC 2.0 gives a message that is JSON but not a valid message: `-32602` for a
 * request whose params are not an object, `-32600` otherwise (with the message's id when it has
 * one, else null). A broken response gets none: answering it could answer an answer.
 */
export function invalidMessageReply(value: unknown): ErrorReply | null {
  if (!isPlainObject(value)) {
    const what = Array.isArray(value) ? 'batches are not supported' : 'a message must be a JSON object';
    return errorReply(null, ErrorCode.InvalidRequest, `Invalid Request: ${what}`);
  }
  if (isResponse(value)) return null;
  const id = isRequestId(value.id) ? value.id : null;
  if (id !== null && typeof value.method === 'string' && 'params' in value && !isPlainObject(value.params)) {
    return errorReply(id, ErrorCode.InvalidParams, 'Invalid params: params must be an object');
  }
  return errorReply(id, ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 request');
}

/** The schema of each request a client may send, by method. */
const REQUEST_SCHEMAS = new Map<string, (typeof ClientRequestSchema.options)[number]>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

/**
 * `-32602` for a request of a method the server knows whose params do not fit it (the SDK would
 * answer a bare `-32603` with its schema's dump); null for every other message.
 */
export function invalidParamsReply(message: JSONRPCMessage): ErrorReply | null {
  if (!('method' in message) || !('id' in message)) return null;
  const schema = REQUEST_SCHEMAS.get(message.method);
  if (schema === undefined) return null;
  const parsed = schema.safeParse({ method: message.method, params: message.params });
  if (parsed.success) return null;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  return errorReply(message.id, ErrorCode.InvalidParams, `Invalid params: ${problems.join('; ')}`);
}

import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { type ErrorReply, errorReply, invalidMessageReply, invalidParamsReply } from './invalid-message.js';
import { RequestIdScanner } from './request-id-scanner.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The default largest message read, in bytes (the SDK's stdio default too). */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface StdioLineTransportOptions {
  /** The largest message (one line, without its line feed) read, in bytes. */
  maxMessageBytes?: number;
}

const LINE_FEED = 0x0a;

/**
 * MCP's stdio transport (newline-delimited JSON-RPC) that answers every request, for the SDK's
 * `McpServer.connect`. The SDK's own drops a message that fails its schema without a word (a
 * request with `params: "hello"` waits forever) and closes on a message over its buffer limit,
 * which ends the process. Here a malformed line gets `-32700`, an invalid message `-32600` or
 * `-32602`, a message over the limit `-32600` with its own id (read without keeping the message),
 * and the transport stays open through all of them.
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxBytes: number;
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  /** Set while a line over the limit is skipped: it reads the line's id as it passes. */
  private oversized: { scanner: RequestIdScanner; bytes: number } | null = null;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    options: StdioLineTransportOptions = {},
  ) {
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pieces = [];
    this.pieceBytes = 0;
    this.oversized = null;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  private write(message: JSONRPCMessage | ErrorReply): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  private reply(answer: ErrorReply, problem: string): void {
    this.onerror?.(new Error(problem));
    this.write(answer).catch((error: unknown) => this.onerror?.(error as Error));
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let from = 0;
    while (from < bytes.length) {
      const end = bytes.indexOf(LINE_FEED, from);
      this.take(bytes.subarray(from, end < 0 ? bytes.length : end));
      if (end < 0) return;
      this.endLine();
      from = end + 1;
    }
  };

  /** A piece of the current line: kept while the line fits the limit, else only scanned for the id. */
  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.oversized !== null) {
      this.oversized.scanner.feed(piece);
      this.oversized.bytes += piece.length;
      return;
    }
    if (this.pieceBytes + piece.length <= this.maxBytes) {
      this.pieces.push(piece);
      this.pieceBytes += piece.length;
      return;
    }
    const scanner = new RequestIdScanner();
    for (const kept of this.pieces) scanner.feed(kept);
    scanner.feed(piece);
    this.oversized = { scanner, bytes: this.pieceBytes + piece.length };
    this.pieces = [];
    this.pieceBytes = 0;
  }

  private endLine(): void {
    const oversized = this.oversized;
    if (oversized !== null) {
      this.oversized = null;
      const problem = `a message of ${oversized.bytes} bytes is over the limit of ${this.maxBytes} bytes`;
      this.reply(
        errorReply(oversized.scanner.id ?? null, ErrorCode.InvalidRequest, `Invalid Request: ${problem}`),
        problem,
      );
      return;
    }
    const bytes = Buffer.concat(this.pieces, this.pieceBytes);
    this.pieces = [];
    this.pieceBytes = 0;
    let line: string;
    try {
      line = strictUtf8.decode(bytes).replace(/\r$/, '');
    } catch {
      // JSON text is UTF-8 (RFC 8259); decoding it leniently would write U+FFFD where a patch had other bytes.
      const problem = 'a line that is not valid UTF-8';
      this.reply(errorReply(null, ErrorCode.ParseError, `Parse error: ${problem}`), problem);
      return;
    }
    if (line.trim() !== '') this.handleLine(line);
  }

  private handleLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const problem = `a line that is not JSON (${(error as Error).message})`;
      this.reply(errorReply(null, ErrorCode.ParseError, `Parse error: ${problem}`), problem);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      const unfit = invalidParamsReply(parsed.data);
      if (unfit !== null) this.reply(unfit, unfit.error.message);
      else this.onmessage?.(parsed.data);
      return;
    }
    const answer = invalidMessageReply(value);
    if (answer !== null) this.reply(answer, answer.error.message);
    else this.onerror?.(new Error('an invalid JSON-RPC response, ignored'));
  }
}

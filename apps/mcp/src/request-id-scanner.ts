/** Bytes an id's value may take; a longer one is no id worth echoing. */
const MAX_ID_BYTES = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** JSON's insignificant whitespace. */
function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * Finds the top-level `"id"` of a JSON-RPC message fed to it in pieces, keeping none of the
 * message: a request too large to read is still answered with its own id (the SDK's client
 * writes the id last). Works on bytes: JSON's structure is ASCII, and no byte of a multi-byte
 * UTF-8 character is.
 */
export class RequestIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1 the next string is a key. */
  private expectKey = false;
  /** The bytes of the depth-1 key being read (only the first three are kept: enough to tell `id`). */
  private key: number[] | null = null;
  /** The last depth-1 key read was `id`, so the value after its colon is the id. */
  private keyIsId = false;
  /** The raw bytes of the id's value while it is read. */
  private value: number[] | null = null;
  private valueInString = false;
  private valueEscaped = false;
  private done = false;
  private found: string | number | undefined;

  /** The message's id, once read: a string or a number, else undefined. */
  get id(): string | number | undefined {
    return this.found;
  }

  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length && !this.done; i++) this.step(bytes[i]!);
  }

  private step(byte: number): void {
    if (this.value !== null) this.readValue(byte);
    else if (this.inString) this.readString(byte);
    else this.readStructure(byte);
  }

  private readString(byte: number): void {
    if (this.escaped) this.escaped = false;
    else if (byte === BACKSLASH) this.escaped = true;
    else if (byte === QUOTE) {
      this.inString = false;
      if (this.key !== null) {
        this.keyIsId = this.key.length === 2 && this.key[0] === 0x69 && this.key[1] === 0x64;
        this.key = null;
      }
      return;
    }
    // An escaped key is never taken for `id`: the kept bytes then differ from `i`, `d`.
    if (this.key !== null && this.key.length < 3) this.key.push(byte === BACKSLASH ? -1 : byte);
  }

  private readStructure(byte: number): void {
    switch (byte) {
      case QUOTE:
        this.inString = true;
        if (this.depth === 1 && this.expectKey) {
          this.key = [];
          this.expectKey = false;
        }
        return;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        this.depth++;
        // A top-level array (a batch) or scalar has no id.
        if (this.depth === 1 && byte === OPEN_BRACKET) this.done = true;
        this.expectKey = this.depth === 1;
        return;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        this.depth--;
        if (this.depth <= 0) this.done = true;
        return;
      case COMMA:
        if (this.depth === 1) this.expectKey = true;
        return;
      case COLON:
        if (this.depth === 1 && this.keyIsId) this.value = [];
        this.keyIsId = false;
        return;
    }
  }

  /** The id's value: a string (kept with its quotes) or a bare token, up to where it ends. */
  private readValue(byte: number): void {
    const value = this.value!;
    if (this.valueInString) {
      value.push(byte);
      if (this.valueEscaped) this.valueEscaped = false;
      else if (byte === BACKSLASH) this.valueEscaped = true;
      else if (byte === QUOTE) this.finishValue();
    } else if (value.length === 0 && isJsonSpace(byte)) {
      return;
    } else if (value.length === 0 && byte === QUOTE) {
      this.valueInString = true;
      value.push(byte);
    } else if (byte === COMMA || byte === CLOSE_BRACE || isJsonSpace(byte)) {
      this.finishValue();
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      this.done = true;
    } else value.push(byte);
    if (!this.done && value.length > MAX_ID_BYTES) this.done = true;
  }

  private finishValue(): void {
    this.done = true;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(this.value!).toString('utf8'));
      if (typeof parsed === 'string' || (typeof parsed === 'number' && Number.isFinite(parsed)))
        this.found = parsed;
    } catch {
      // Not a JSON value: no id.
    }
  }
}

/**
 * Paths as git writes them in diff headers: C-style quoted (`"a/caf\303\251 \"x\".txt"`) when they
 * hold a quote, a backslash, a control or a non-ASCII character, else as they are.
 */

const ESCAPES: Readonly<Record<string, number>> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  '\\': 92,
};
const encoder = new TextEncoder();
/** Fatal: an octal escape sequence that is not UTF-8 has no faithful JS string, so it is refused. */
const decoder = new TextDecoder('utf-8', { fatal: true });

/** A path that git would quote. */
export function needsQuoting(path: string): boolean {
  return /["\\\x00-\x1f\x7f]|[^\x00-\x7f]/.test(path);
}

/** The path as git writes it: quoted with C escapes and octal bytes when needed. */
export function quotePath(path: string): string {
  if (!needsQuoting(path)) return path;
  let out = '"';
  for (const byte of encoder.encode(path)) {
    const ch = String.fromCharCode(byte);
    const named = Object.entries(ESCAPES).find(([, code]) => code === byte);
    if (named) out += `\\${named[0]}`;
    else if (byte < 0x20 || byte >= 0x7f) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * Reads a quoted path at the start of `text`: the path and the rest after its closing quote, or
 * null when `text` does not start with a well-formed quoted path (its bytes valid UTF-8).
 */
export function readQuotedPath(text: string): { path: string; rest: string } | null {
  if (!text.startsWith('"')) return null;
  const bytes: number[] = [];
  for (let i = 1; i < text.length; i++) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    if (ch === '"') {
      const path = decodeOrNull(bytes);
      return path === null ? null : { path, rest: text.slice(i + 1) };
    }
    if (ch !== '\\') {
      bytes.push(...encoder.encode(ch));
      i += ch.length - 1;
      continue;
    }
    const next = text[++i];
    if (next === undefined) return null;
    const octal = /^[0-7]{3}/.exec(text.slice(i, i + 3));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8));
      i += 2;
    } else if (ESCAPES[next] !== undefined) bytes.push(ESCAPES[next]);
    else return null;
  }
  return null;
}

function decodeOrNull(bytes: number[]): string | null {
  try {
    return decoder.decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

/**
 * The few ANSI styles the human format uses, written as picocolors writes them (the test compares
 * the two). picocolors decides at load whether the terminal takes colours, and to know it touches
 * `process.stdout`, which sets up Node's stdout stream: ~2 ms of every CLI start (`node -e` 23.9
 * against 26.0 ms with stdout piped), though the caller says whether to colour anyway.
 */
export interface Colors {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/** Wraps a text in `open`/`close`; a `close` inside it (a nested style ending) reopens this style. */
function style(open: string, close: string, reopen = open): (text: string) => string {
  return (input) => {
    const text = `${input}`;
    let at = text.indexOf(close, open.length);
    if (at === -1) return open + text + close;
    let out = '';
    let from = 0;
    do {
      out += text.substring(from, at) + reopen;
      from = at + close.length;
      at = text.indexOf(close, from);
    } while (at !== -1);
    return open + out + text.substring(from) + close;
  };
}

const plain = (text: string): string => `${text}`;

/** The styles, or each one the text itself when `enabled` is false. */
export function createColors(enabled: boolean): Colors {
  if (!enabled) return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain };
  return {
    bold: style('\x1b[1m', '\x1b[22m', '\x1b[22m\x1b[1m'),
    dim: style('\x1b[2m', '\x1b[22m', '\x1b[22m\x1b[2m'),
    red: style('\x1b[31m', '\x1b[39m'),
    green: style('\x1b[32m', '\x1b[39m'),
    yellow: style('\x1b[33m', '\x1b[39m'),
    cyan: style('\x1b[36m', '\x1b[39m'),
  };
}

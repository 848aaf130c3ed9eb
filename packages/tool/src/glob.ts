/**
 * A small glob matcher for permission rules, over `/`-separated paths relative to the root:
 * `*` any run of characters within one segment, `?` one character other than `/`, `**` any number
 * of whole segments (zero included), `{a,b}` alternatives (nestable). A pattern without a `/`
 * matches the last segment at any depth (as in .gitignore: `*.pem` is every .pem file); a leading
 * `/` anchors a pattern to the root. Everything else is literal, so `.`, `+`, `(` mean themselves.
 */
export function globToRegExp(pattern: string): RegExp {
  const anchored = pattern.startsWith('/');
  const body = anchored ? pattern.slice(1) : pattern;
  const matchesAnyDepth = !anchored && !body.includes('/');
  const source = translate(body);
  return new RegExp(matchesAnyDepth ? `^(?:.*/)?${source}$` : `^${source}$`);
}

/** Whether a root-relative path matches a permission glob. */
export function matchesGlob(path: string, pattern: string): boolean {
  return globToRegExp(pattern).test(path);
}

const SPECIAL = /[\\^$.|+()[\]{}]/;

function escapeChar(ch: string): string {
  return SPECIAL.test(ch) ? `\\${ch}` : ch;
}

/** Index of the `}` that closes the `{` at `open`, or -1 when it is not closed. */
function closingBrace(pattern: string, open: number): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    if (pattern[i] === '{') depth++;
    else if (pattern[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Splits the inside of a brace group at its top-level commas. */
function alternatives(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i];
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts;
}

/** A `**` that stands for whole segments: alone between slashes or at an end of the pattern. */
function isGlobstar(pattern: string, at: number): boolean {
  const before = at === 0 || pattern[at - 1] === '/';
  const after = at + 2 === pattern.length || pattern[at + 2] === '/';
  return before && after;
}

function translate(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    if (ch === '*' && pattern[i + 1] === '*' && isGlobstar(pattern, i)) {
      // `**/` is zero or more leading segments; a final `**` is everything below.
      if (pattern[i + 2] === '/') {
        out += '(?:[^/]+/)*';
        i += 3;
      } else {
        out += '.*';
        i += 2;
      }
    } else if (ch === '*') {
      out += '[^/]*';
      i += pattern[i + 1] === '*' ? 2 : 1;
    } else if (ch === '?') {
      out += '[^/]';
      i++;
    } else if (ch === '{' && closingBrace(pattern, i) !== -1) {
      const close = closingBrace(pattern, i);
      const parts = alternatives(pattern.slice(i + 1, close)).map(translate);
      out += `(?:${parts.join('|')})`;
      i = close + 1;
    } else {
      out += escapeChar(ch);
      i++;
    }
  }
  return out;
}

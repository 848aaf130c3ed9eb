/**
 * Permission globs, matched in time linear in the path for each pattern. Written here instead of
 * with picomatch (kept for everything else until this measurement): picomatch compiles `*` to
 * `[^/]*?`, which V8 backtracks polynomially in the number of stars of a segment — `*a*a*a*a*b`
 * against a 200-character name took 32 s, and the rules come from the repository's own
 * `.patchsmith.json`, which a hostile repository writes. The syntax is picomatch's for the paths
 * we match (canonical tree paths: no `.`/`..` segments, no empty segment): `**` as a whole
 * segment is any number of segments, `*` any run within one, `?` one character, `[a-z]`,
 * `[!x]`/`[^x]`, `\x` a literal, `{a,b}` and `{1..3}` alternatives; `**` with more in its
 * segment is a `*`, as bash reads it. A property test compares it with picomatch.
 */

/** One character of a segment pattern: a literal, any character, or a class. */
type CharTest =
  | { kind: 'char'; char: string }
  | { kind: 'any' }
  | { kind: 'class'; negated: boolean; ranges: Array<[string, string]> };
type SegmentToken = CharTest | { kind: 'star' };
type SegmentPattern = SegmentToken[];
/** A pattern: segment patterns, `globstar` where a whole segment is `**`. */
type PathPattern = Array<SegmentPattern | 'globstar'>;

/** More alternatives than this from braces is refused: `{a,b}` twenty times would be a million patterns. */
export const MAX_GLOB_ALTERNATIVES = 256;

export class GlobSyntaxError extends Error {}

/** The index of the `}` closing the brace at `open`, or -1 (escapes and nesting respected). */
function closingBrace(pattern: string, open: number): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/** The top-level comma-separated parts of a brace body. */
function braceParts(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** `1..3` or `a..e`, as its members; null when the body is not a range. */
function braceRange(body: string): string[] | null {
  const numeric = /^(-?\d{1,6})\.\.(-?\d{1,6})$/.exec(body);
  const alpha = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body);
  const ends = numeric ?? alpha;
  if (ends === null) return null;
  const from = numeric ? Number(ends[1]) : ends[1]!.charCodeAt(0);
  const to = numeric ? Number(ends[2]) : ends[2]!.charCodeAt(0);
  const count = Math.abs(to - from) + 1;
  if (count > MAX_GLOB_ALTERNATIVES)
    throw new GlobSyntaxError(`the range {${body}} has more than ${MAX_GLOB_ALTERNATIVES} members`);
  const step = from <= to ? 1 : -1;
  return Array.from({ length: count }, (_, k) =>
    numeric ? String(from + k * step) : String.fromCharCode(from + k * step),
  );
}

/** The pattern with its braces expanded into alternatives (a brace with neither comma nor range is literal). */
export function expandBraces(pattern: string): string[] {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      i++;
      continue;
    }
    if (pattern[i] !== '{') continue;
    const close = closingBrace(pattern, i);
    if (close === -1) return [pattern];
    const body = pattern.slice(i + 1, close);
    const parts = braceParts(body);
    const members = parts.length > 1 ? parts : braceRange(body);
    if (members === null) continue;
    const head = pattern.slice(0, i);
    const tails = expandBraces(pattern.slice(close + 1));
    const out: string[] = [];
    for (const member of members) {
      for (const inner of expandBraces(member)) {
        for (const tail of tails) {
          out.push(head + inner + tail);
          if (out.length > MAX_GLOB_ALTERNATIVES) {
            throw new GlobSyntaxError(`its braces make more than ${MAX_GLOB_ALTERNATIVES} patterns`);
          }
        }
      }
    }
    return out;
  }
  return [pattern];
}

/** A `[...]` class starting at `open`: the test and the index after it, or null when unclosed (then `[` is literal). */
function readClass(segment: string, open: number): { test: CharTest; next: number } | null {
  let i = open + 1;
  const negated = segment[i] === '!' || segment[i] === '^';
  if (negated) i++;
  const ranges: Array<[string, string]> = [];
  let first = true;
  while (i < segment.length && (segment[i] !== ']' || first)) {
    first = false;
    let low = segment[i]!;
    if (low === '\\' && i + 1 < segment.length) low = segment[++i]!;
    let high = low;
    if (segment[i + 1] === '-' && i + 2 < segment.length && segment[i + 2] !== ']') {
      high = segment[i + 2]!;
      if (high === '\\' && i + 3 < segment.length) high = segment[++i + 2]!;
      i += 2;
    }
    ranges.push([low, high]);
    i++;
  }
  if (i >= segment.length) return null;
  return { test: { kind: 'class', negated, ranges }, next: i + 1 };
}

/** One segment of a pattern, as tokens; runs of `*` are one star. */
function compileSegment(segment: string): SegmentPattern {
  const tokens: SegmentPattern = [];
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') {
      tokens.push({ kind: 'any' });
    } else if (c === '[') {
      const read = readClass(segment, i);
      if (read === null) tokens.push({ kind: 'char', char: c });
      else {
        tokens.push(read.test);
        i = read.next - 1;
      }
    } else if (c === '\\' && i + 1 < segment.length) {
      tokens.push({ kind: 'char', char: segment[++i]! });
    } else {
      tokens.push({ kind: 'char', char: c });
    }
  }
  return tokens;
}

function compilePath(pattern: string): PathPattern {
  const compiled: PathPattern = [];
  // `./x` is `x`, as picomatch reads it.
  let body = pattern;
  while (body.startsWith('./')) body = body.slice(2);
  for (const segment of body.split('/')) {
    if (segment === '**') {
      if (compiled.at(-1) !== 'globstar') compiled.push('globstar');
    } else compiled.push(compileSegment(segment));
  }
  // `a/` matches as `a` does (picomatch lets a trailing slash match the folder itself).
  if (
    compiled.length > 1 &&
    Array.isArray(compiled.at(-1)) &&
    (compiled.at(-1) as SegmentPattern).length === 0
  )
    compiled.pop();
  return compiled;
}

const fold = (c: string) => c.toLowerCase();

/** One character of the path against one character test. */
function testChar(test: CharTest, c: string, caseInsensitive: boolean): boolean {
  if (test.kind === 'any') return true;
  if (test.kind === 'char') return caseInsensitive ? fold(test.char) === fold(c) : test.char === c;
  const inRanges = (x: string) => test.ranges.some(([low, high]) => low <= x && x <= high);
  const found = inRanges(c) || (caseInsensitive && (inRanges(c.toLowerCase()) || inRanges(c.toUpperCase())));
  return found !== test.negated;
}

/**
 * The classic wildcard match, backtracking only to the last star: O(path × pattern) at worst,
 * never more, whatever the pattern. `units` are characters of a segment or segments of a path.
 */
function wildcardMatch<T, U>(
  tokens: readonly (T | 'star')[],
  units: readonly U[],
  matchesOne: (token: T, unit: U) => boolean,
): boolean {
  let unit = 0;
  let token = 0;
  let starToken = -1;
  let starUnit = 0;
  while (unit < units.length) {
    const current = tokens[token];
    if (current === 'star') {
      starToken = token++;
      starUnit = unit;
    } else if (current !== undefined && matchesOne(current, units[unit]!)) {
      token++;
      unit++;
    } else if (starToken !== -1) {
      token = starToken + 1;
      unit = ++starUnit;
    } else return false;
  }
  while (tokens[token] === 'star') token++;
  return token === tokens.length;
}

function matchSegment(pattern: SegmentPattern, segment: string, caseInsensitive: boolean): boolean {
  const tokens = pattern.map((t) => (t.kind === 'star' ? ('star' as const) : t));
  return wildcardMatch(tokens, [...segment], (test, c) => testChar(test, c, caseInsensitive));
}

/** A compiled permission glob: whether it matches a canonical root-relative path. */
export function compileGlob(
  pattern: string,
  options: { basename: boolean; caseInsensitive: boolean },
): (path: string) => boolean {
  const alternatives = expandBraces(pattern).map(compilePath);
  return (path) => {
    const segments = path.split('/').filter((s) => s !== '');
    const units = options.basename ? segments.slice(-1) : segments;
    return alternatives.some((alternative) => {
      const tokens = alternative.map((p) => (p === 'globstar' ? ('star' as const) : p));
      return wildcardMatch(tokens, units, (p, segment) => matchSegment(p, segment, options.caseInsensitive));
    });
  };
}

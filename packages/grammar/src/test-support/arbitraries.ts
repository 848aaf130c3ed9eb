/**
 * fast-check generators of printable edit scripts (see printPatch for what "printable" means),
 * and helpers to compare scripts and to add the noise models put around and inside patches.
 */

import type { Anchor, Chunk, ChunkLine, EditScript, LineHint, Operation } from '@patchsmith/core';
import fc from 'fast-check';

/** Strings models and files do contain, and the ones that look like patch syntax. */
const TRICKY_TEXTS = [
  '',
  ' ',
  '\t',
  '  indented',
  '*** Add File: x.txt',
  '*** Update File: y',
  '*** Delete File: z',
  '*** Move to: w',
  '*** Frobnicate File: q',
  '@@',
  '@@ anchor',
  '@@ -1,2 +1,2 @@',
  '+plus',
  '-minus',
  '***',
  '*** End Patch',
  '  *** End of File  ',
  '*** Begin Patch',
  'naïve café ✅',
  'trailing  ',
  'a\rb',
];

const CHARS = [...'abcXYZ019 \t*@+-_:./\'"`<>{}()#', 'é', '✅', '\u00a0', '\u200b'];

const anyText = fc.oneof(
  { arbitrary: fc.constantFrom(...TRICKY_TEXTS), weight: 1 },
  { arbitrary: fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 24 }), weight: 3 },
);

/** A line's text: one line whose end survives CRLF normalisation. */
export const lineText = anyText.filter((t) => !t.includes('\n') && !t.endsWith('\r'));

const MARKER = /^[ \t]*\*\*\* (?:End Patch|End of File|Begin Patch)[ \t]*$/;
const LOOKS_LIKE_HINT = /^[ \t]*-\d{1,15}(?:,\d{1,15})?[ \t]*\+\d{1,15}(?:,\d{1,15})?[ \t]*@@/;

const segment = fc.string({ unit: fc.constantFrom(...'abcxyz019_-. é'), minLength: 1, maxLength: 8 });
export const path = fc
  .array(segment, { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join('/'))
  .filter((p) => p !== '' && p === p.trim());

const anchor: fc.Arbitrary<Anchor> = anyText
  .map((t) => t.trim())
  .filter((t) => t !== '' && !/[\r\n]/.test(t) && !LOOKS_LIKE_HINT.test(t))
  .map((text) => ({ text, line: 0 }));

const count = fc.nat({ max: 100_000 });
const hint: fc.Arbitrary<LineHint> = fc
  .record({ oldStart: count, oldLines: fc.option(count), newStart: count, newLines: fc.option(count) })
  .map(({ oldStart, oldLines, newStart, newLines }) => ({
    oldStart,
    ...(oldLines === null ? {} : { oldLines }),
    newStart,
    ...(newLines === null ? {} : { newLines }),
  }));

const chunkLine: fc.Arbitrary<ChunkLine> = fc
  .record({ kind: fc.constantFrom('context', 'remove', 'add'), text: lineText })
  .filter(({ kind, text }) => !(kind === 'context' && MARKER.test(text)))
  .map(({ kind, text }) => ({ kind, text, line: 0 }));

const chunk: fc.Arbitrary<Chunk> = fc
  .record({
    anchors: fc.array(anchor, { maxLength: 3 }),
    hint: fc.option(hint, { freq: 3 }),
    lines: fc.array(chunkLine, { minLength: 1, maxLength: 6 }),
    endOfFile: fc.boolean(),
  })
  .map(({ hint: h, ...rest }) => ({ ...rest, ...(h === null ? {} : { hint: h }), line: 0 }));

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc
    .record({ path, lines: fc.array(lineText, { maxLength: 5 }) })
    .map((o) => ({ kind: 'add' as const, ...o, line: 0 })),
  path.map((p) => ({ kind: 'delete' as const, path: p, line: 0 })),
  fc
    .record({ path, movePath: fc.option(path, { freq: 3 }), chunks: fc.array(chunk, { maxLength: 4 }) })
    .filter((o) => o.movePath !== null || o.chunks.length > 0)
    .map(({ movePath, ...o }) => ({
      kind: 'update' as const,
      ...o,
      ...(movePath === null ? {} : { movePath }),
      line: 0,
    })),
);

/** A Codex edit script that printPatch accepts. */
export const printableScript: fc.Arbitrary<EditScript> = fc
  .array(operation, { minLength: 1, maxLength: 5 })
  .map((operations) => ({ format: 'codex' as const, operations }));

/** The script with every `line` field removed, to compare what was said, not where. */
export function withoutLines(script: EditScript): unknown {
  return JSON.parse(JSON.stringify(script, (key, value) => (key === 'line' ? undefined : value)));
}

/** Every node of a parsed script that carries a `line`, in document order, with the printed line it must point at. */
export function expectedLineTexts(
  script: EditScript,
): Array<{ line: number; matches: (text: string) => boolean; what: string }> {
  const out: Array<{ line: number; matches: (text: string) => boolean; what: string }> = [];
  const headerOf = {
    add: 'Add File',
    delete: 'Delete File',
    update: 'Update File',
    replace: 'n/a',
    insert: 'n/a',
    binary: 'n/a',
  } as const;
  const prefix = { context: ' ', remove: '-', add: '+' } as const;
  for (const op of script.operations) {
    out.push({
      line: op.line,
      matches: (t) => t === `*** ${headerOf[op.kind]}: ${op.path}`,
      what: `${op.kind} ${op.path}`,
    });
    if (op.kind !== 'update') continue;
    for (const c of op.chunks) {
      out.push({ line: c.line, matches: (t) => t.startsWith('@@'), what: 'chunk header' });
      for (const a of c.anchors) {
        out.push({
          line: a.line,
          matches: (t) => t.startsWith('@@') && t.endsWith(` ${a.text}`),
          what: `anchor ${a.text}`,
        });
      }
      for (const l of c.lines)
        out.push({
          line: l.line,
          matches: (t) => t === prefix[l.kind] + l.text,
          what: `${l.kind} ${l.text}`,
        });
    }
  }
  return out;
}

// ---- Noise: what models do to a patch that the parser must forgive ----

export interface Noise {
  /** Whitespace put around markers and headers (index into PADDINGS). */
  padding: number[];
  /** Blank lines added where they separate operations. */
  blankLines: number[];
  /** Drop the bare `@@` of each Update's first chunk when allowed. */
  omitFirstHeader: boolean;
  /** `@@anchor` instead of `@@ anchor`. */
  squeezeAnchors: boolean;
  wrapper:
    | 'none'
    | 'heredoc'
    | 'quoted-heredoc'
    | 'cat-heredoc'
    | 'apply_patch-heredoc'
    | 'fence'
    | 'fence+heredoc';
  surroundingBlank: boolean;
  crlf: boolean;
}

const PADDINGS = ['', ' ', '  ', '\t', ' \t '];

/**
 * Whether the bare `@@` before this first chunk line may go: not before a blank line, nor before a
 * line that reads as a file header or marker once trimmed (right after `*** Update File:` such a
 * line is a header, so without the `@@` it would no longer be chunk content).
 */
function canOmitHeaderBefore(line: string): boolean {
  return !/^[ \t]*$/.test(line) && !line.trim().startsWith('***');
}

export const noise: fc.Arbitrary<Noise> = fc.record({
  padding: fc.array(fc.nat({ max: PADDINGS.length - 1 }), { minLength: 8, maxLength: 8 }),
  blankLines: fc.array(fc.nat({ max: 2 }), { minLength: 8, maxLength: 8 }),
  omitFirstHeader: fc.boolean(),
  squeezeAnchors: fc.boolean(),
  wrapper: fc.constantFrom(
    'none',
    'heredoc',
    'quoted-heredoc',
    'cat-heredoc',
    'apply_patch-heredoc',
    'fence',
    'fence+heredoc',
  ),
  surroundingBlank: fc.boolean(),
  crlf: fc.boolean(),
});

const MARKER_LINE = /^\*\*\* (?:Begin Patch|End Patch|End of File)$/;
const HEADER_LINE = /^\*\*\* (?:Add File|Delete File|Update File|Move to): /;
/** Lines after which blank lines are a gap, not content. */
const GAP_BEFORE = /^\*\*\* (?:Begin Patch|Delete File: |Update File: |Move to: |End of File$)/;

/**
 * Rewrites a canonical printed patch the way models write patches, without changing what it says.
 * `script` is what `canonical` prints, so the noise knows which lines are content.
 */
export function addNoise(canonical: string, script: EditScript, n: Noise): string {
  const lines = canonical.split('\n');
  lines.pop(); // the final newline
  const firstHeaders = firstChunkHeaderLines(script);
  const out: string[] = [];
  let k = 0;
  const pick = (xs: number[]) => xs[k++ % xs.length]!;
  for (const [i, line] of lines.entries()) {
    // Canonical content lines start with ' ', '-', '+' or '@@', so `***` at column 0 is structure.
    const previous = lines[i - 1] ?? '';
    if (GAP_BEFORE.test(previous) && !MARKER_LINE.test(line)) {
      for (let b = pick(n.blankLines); b > 0; b--) out.push(PADDINGS[pick(n.padding)]!);
    }
    if (MARKER_LINE.test(line)) {
      out.push(PADDINGS[pick(n.padding)] + line + PADDINGS[pick(n.padding)]);
    } else if (HEADER_LINE.test(line)) {
      // A leading space right after a chunk line would make the header a context line.
      const lead = isChunkContent(previous) ? '\t' : PADDINGS[pick(n.padding)]!;
      out.push(lead + line + PADDINGS[pick(n.padding)]);
    } else if (n.omitFirstHeader && firstHeaders.has(i) && canOmitHeaderBefore(lines[i + 1] ?? '')) {
      // dropped: the first chunk of an Update may omit a bare `@@`
    } else if (line.startsWith('@@ ') && !line.startsWith('@@ -')) {
      out.push((n.squeezeAnchors ? `@@${line.slice(3)}` : line) + PADDINGS[pick(n.padding)]);
    } else if (line === '@@') {
      out.push(line + PADDINGS[pick(n.padding)]);
    } else {
      out.push(line);
    }
  }
  const wrapped = wrap(out, n.wrapper);
  if (n.surroundingBlank) {
    wrapped.unshift('', '  ');
    wrapped.push(' ', '');
  }
  return wrapped.join(n.crlf ? '\r\n' : '\n') + (n.crlf ? '\r\n' : '\n');
}

/** A canonical chunk or Add File content line. */
function isChunkContent(line: string): boolean {
  return /^[ +-]/.test(line);
}

/** Printed line indexes (0-based) of each Update's first chunk header, when it is a bare `@@`. */
function firstChunkHeaderLines(script: EditScript): Set<number> {
  const found = new Set<number>();
  let index = 1; // after *** Begin Patch
  for (const op of script.operations) {
    index++; // header
    if (op.kind === 'add') index += op.lines.length;
    if (op.kind !== 'update') continue;
    if (op.movePath !== undefined) index++;
    for (const [c, chunk] of op.chunks.entries()) {
      if (c === 0 && chunk.anchors.length === 0 && chunk.hint === undefined) found.add(index);
      index += Math.max(1, chunk.anchors.length) + chunk.lines.length + (chunk.endOfFile ? 1 : 0);
    }
  }
  return found;
}

function wrap(lines: string[], wrapper: Noise['wrapper']): string[] {
  switch (wrapper) {
    case 'none':
      return lines;
    case 'heredoc':
      return ['<<EOF', ...lines, 'EOF'];
    case 'quoted-heredoc':
      return ['<<"EOF"', ...lines, 'EOF'];
    case 'cat-heredoc':
      return ["cat <<'EOF'", ...lines, 'EOF'];
    case 'apply_patch-heredoc':
      return ["apply_patch <<'PATCH'", ...lines, 'PATCH'];
    case 'fence':
      return ['```diff', ...lines, '```'];
    case 'fence+heredoc':
      return ['```bash', "apply_patch <<'EOF'", ...lines, 'EOF', '```'];
  }
}

import type { EditScript, Operation } from '@patchsmith/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type InputFormat, parseEdits } from './parse-edits.js';
import { type EditStreamEvent, parseEditsStream } from './parse-edits-stream.js';
import { printPatch } from './print-patch.js';
import { printSearchReplace } from './print-search-replace.js';
import { printUnified } from './print-unified.js';
import { printWholeFile } from './print-whole-file.js';
import { printableScript } from './test-support/arbitraries.js';
import { searchReplaceScript, unifiedScript, wholeFileScript } from './test-support/format-scripts.js';

/** Streams `text` cut at `cuts` (offsets), collecting every event. */
function stream(text: string, cuts: number[], format: InputFormat = 'auto') {
  const parser = parseEditsStream(format);
  const events: EditStreamEvent[] = [];
  let at = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    events.push(...parser.push(text.slice(at, cut)));
    at = cut;
  }
  events.push(...parser.push(text.slice(at)));
  const end = parser.end();
  events.push(...end.events);
  return { events, result: end.result };
}

const operations = (events: EditStreamEvent[]): Operation[] =>
  events.flatMap((e) => (e.type === 'operation' ? [e.operation] : []));
const formats = (events: EditStreamEvent[]) => events.flatMap((e) => (e.type === 'format' ? [e.format] : []));

/** A text in each format, plainly or inside the wrappers models put around it. */
const wrapped = (text: string, wrap: number): string =>
  [
    text,
    `Here is the change:\n\n${text}\nDone.\n`,
    `\`\`\`\n${text}\`\`\`\n`,
    `cd src && apply_patch <<'EOF'\n${text}EOF\n`,
  ][wrap]!;

const printed: fc.Arbitrary<[string, boolean]> = fc.oneof(
  printableScript.map((s: EditScript) => [printPatch(s), true] as [string, boolean]),
  unifiedScript.map((s) => [printUnified(s), true] as [string, boolean]),
  searchReplaceScript.map((s) => [printSearchReplace(s), true] as [string, boolean]),
  wholeFileScript.map((s) => [printWholeFile(s), false] as [string, boolean]),
);

describe('parseEditsStream', () => {
  it('every split of a text in any format yields what parseEdits gives, and the operations as they complete', () => {
    fc.assert(
      fc.property(
        printed,
        fc.nat({ max: 3 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        ([raw, wrappable], wrap, rawCuts) => {
          // Whole-file blocks have no marker line for the prose wrapper; they are read whole.
          const text = wrappable ? wrapped(raw, wrap) : raw;
          const cuts = rawCuts.map((c) => c % (text.length + 1));
          const whole = parseEdits(text);
          const { events, result } = stream(text, cuts);
          expect(result).toStrictEqual(whole);
          if (!whole.ok) return;
          expect(operations(events)).toStrictEqual(whole.value.operations);
          expect(formats(events)).toStrictEqual([whole.value.format]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('yields each SEARCH/REPLACE block at its REPLACE line, with progress counts', () => {
    const parser = parseEditsStream();
    const first = parser.push(
      'Fix:\na.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\nb.py\n<<<<<<< SEA',
    );
    expect(first.map((e) => e.type)).toStrictEqual(['format', 'operation', 'progress']);
    expect(first[0]).toStrictEqual({ type: 'format', format: 'search-replace', detected: true });
    expect(first[2]).toStrictEqual({ type: 'progress', lines: 8, operations: 1 });
    expect(parser.push('RCH\nz\n=======\n')).toStrictEqual([{ type: 'progress', lines: 11, operations: 1 }]);
    const end = parser.end();
    expect(end.result.ok).toBe(false);
    expect(operations(end.events)).toStrictEqual([]);
  });

  it("Cline's stream cut before its last REPLACE line: the block comes at the end, once the input has ended", () => {
    const parser = parseEditsStream();
    expect(operations(parser.push('a.js\n------- SEARCH\nlet x = 1;\n=======\nlet x = 2;\n'))).toStrictEqual(
      [],
    );
    const end = parser.end();
    expect(operations(end.events)).toMatchObject([
      { path: 'a.js', search: 'let x = 1;\n', replace: 'let x = 2;\n' },
    ]);
  });

  it('yields a unified diff file when the next file header comes, not at a --- line the hunk still counts', () => {
    const parser = parseEditsStream();
    const events = parser.push(
      '--- a/x\n+++ b/x\n@@ -1,2 +0,0 @@\n-a\n--- b\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-c\n+d\n',
    );
    expect(operations(events).map((o) => o.path)).toStrictEqual(['x']);
    expect(operations(parser.end().events).map((o) => o.path)).toStrictEqual(['y']);
  });

  it('yields whole-file blocks at their closing fence when the format is given; a cut-off block is refused at the end', () => {
    const parser = parseEditsStream('whole-file');
    const events = parser.push('a.py\n```python\nprint(1)\n```\nb.py\n```python\nprint(');
    expect(events[0]).toStrictEqual({ type: 'format', format: 'whole-file', detected: false });
    expect(operations(events).map((o) => o.path)).toStrictEqual(['a.py']);
    const end = parser.end();
    expect(end.result.ok).toBe(false);
  });

  it('Codex progress names the operation in flight', () => {
    const parser = parseEditsStream();
    const events = parser.push('*** Begin Patch\n*** Add File: a.txt\n+one\n');
    expect(events.at(-1)).toStrictEqual({
      type: 'progress',
      lines: 3,
      operations: 0,
      current: { kind: 'add', path: 'a.txt', lines: 1 },
    });
  });

  it('JSON commands are decided and yielded at the end', () => {
    const parser = parseEditsStream();
    expect(
      operations(parser.push('{"file_path": "a", "old_string": "x",\n "new_string": "y"}\n')),
    ).toStrictEqual([]);
    const end = parser.end();
    expect(end.events[0]).toStrictEqual({ type: 'format', format: 'str_replace', detected: true });
    expect(operations(end.events)).toHaveLength(1);
  });
});

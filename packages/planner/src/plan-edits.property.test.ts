import type { ChunkLine } from '@patchsmith/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planEdits } from './plan-edits.js';
import { files, ROOT, script, update } from './test-support/script.js';
import type { FileState } from './types.js';

const encoder = new TextEncoder();
const BOM = '\uFEFF';

interface GeneratedFile {
  bom: boolean;
  texts: string[];
  endings: string[];
}

/** A text file whose lines are unique (so every block has exactly one place) with random endings. */
const textFile = fc
  .record({
    bom: fc.boolean(),
    words: fc.array(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', 'é', '{', '}'), maxLength: 6 }), {
      minLength: 1,
      maxLength: 25,
    }),
    endings: fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 25, maxLength: 25 }),
    lastEnding: fc.constantFrom('', '\n', '\r\n', '\r'),
  })
  .map(({ bom, words, endings, lastEnding }): GeneratedFile => {
    const texts = words.map((word, i) => `line ${i}:${word}`);
    return {
      bom,
      texts,
      endings: texts.map((_, i) => (i === texts.length - 1 ? lastEnding : (endings[i] ?? '\n'))),
    };
  });

function render(f: GeneratedFile, from = 0, to = f.texts.length): string {
  let out = '';
  for (let i = from; i < to; i++) out += (f.texts[i] ?? '') + (f.endings[i] ?? '');
  return out;
}

function state(f: GeneratedFile): FileState {
  return { kind: 'file', bytes: encoder.encode((f.bom ? BOM : '') + render(f)), mode: 0o644 };
}

function line(kind: ChunkLine['kind'], text: string): ChunkLine {
  return { kind, text, line: 1 };
}

/** The planned bytes of `f`, or the file's own bytes when the planner says the patch changes nothing. */
function planned(f: GeneratedFile, chunks: Parameters<typeof update>[1]): Uint8Array | undefined {
  const before = state(f);
  const result = planEdits(script(update('f', chunks)), files({ f: before }), { root: ROOT });
  if (!result.ok && result.errors.length === 1 && result.errors[0]?.code === 'EMPTY_PATCH')
    return before.kind === 'file' ? before.bytes : undefined;
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  // A plan is only ever made of a change.
  expect(result.plan.writes[0]?.after?.bytes).not.toEqual(before.kind === 'file' ? before.bytes : undefined);
  return result.plan.writes[0]?.after?.bytes;
}

describe('planEdits properties', () => {
  it('chunks made only of context lines leave every byte unchanged, endings included', () => {
    const withBlocks = textFile.chain((f) =>
      fc.tuple(
        fc.constant(f),
        fc.array(fc.tuple(fc.nat({ max: f.texts.length - 1 }), fc.integer({ min: 1, max: 4 })), {
          minLength: 1,
          maxLength: 4,
        }),
      ),
    );
    fc.assert(
      fc.property(withBlocks, ([f, picks]) => {
        // Non-overlapping blocks in file order, as a model would write successive chunks.
        const blocks: Array<[number, number]> = [];
        let next = 0;
        for (const [start, length] of [...picks].sort((a, b) => a[0] - b[0])) {
          if (start < next) continue;
          const end = Math.min(start + length, f.texts.length);
          blocks.push([start, end]);
          next = end;
        }
        const chunks = blocks.map(([start, end]) => ({
          anchors: [],
          lines: f.texts.slice(start, end).map((text) => line('context', text)),
          endOfFile: false,
          line: 1,
        }));
        expect(planned(f, chunks)).toEqual(encoder.encode((f.bom ? BOM : '') + render(f)));
      }),
      { numRuns: 200 },
    );
  });

  it('replacing a block cut from a random file yields exactly the expected bytes', () => {
    const cut = textFile.chain((f) =>
      fc.tuple(fc.nat({ max: f.texts.length }), fc.nat({ max: 4 })).chain(([s, rawLength]) => {
        const length = Math.min(rawLength, f.texts.length - s);
        return fc.record({
          f: fc.constant(f),
          start: fc.constant(s),
          length: fc.constant(length),
          before: fc.nat({ max: Math.min(2, s) }),
          after: fc.nat({ max: Math.min(2, f.texts.length - s - length) }),
          added: fc.array(
            fc.string({ unit: fc.constantFrom('x', 'y', ' ', 'ü'), maxLength: 5 }).map((t) => `new ${t}`),
            {
              maxLength: 4,
            },
          ),
        });
      }),
    );
    fc.assert(
      fc.property(cut, ({ f, start, length, before, after, added }) => {
        fc.pre(before + length + after > 0);
        const end = start + length;
        const chunk = {
          anchors: [],
          lines: [
            ...f.texts.slice(start - before, start).map((t) => line('context', t)),
            ...f.texts.slice(start, end).map((t) => line('remove', t)),
            ...added.map((t) => line('add', t)),
            ...f.texts.slice(end, end + after).map((t) => line('context', t)),
          ],
          endOfFile: false,
          line: 1,
        };

        // Expected, built from the spec's rules rather than the planner's line model.
        const newEnding = f.endings.find((e) => e !== '') ?? '\n';
        const finalNewline = f.endings[f.endings.length - 1] !== '';
        // An unterminated last line that gets lines after it takes the new-line ending.
        const prefix = render(f, 0, start);
        const terminated =
          added.length > 0 && start > 0 && f.endings[start - 1] === '' ? prefix + newEnding : prefix;
        const head = terminated + added.map((t) => t + newEnding).join('');
        const tail = render(f, end);
        let expected = head + tail;
        if (tail === '' && !finalNewline) expected = expected.replace(/(\r\n|\n|\r)$/, '');
        expect(planned(f, [chunk])).toEqual(encoder.encode((f.bom ? BOM : '') + expected));
      }),
      { numRuns: 300 },
    );
  });
});

import type { Anchor, Chunk, ChunkLine, LineHint } from '@patchsmith/core';

export interface ChunkSpec {
  anchors?: string[];
  hint?: LineHint;
  endOfFile?: boolean;
}

/** A chunk from Codex-style body lines: ` ` context, `-` removed, `+` added (a bare `` is empty context). */
export function chunk(body: readonly string[], spec: ChunkSpec = {}): Chunk {
  const lines: ChunkLine[] = body.map((raw, i) => {
    const prefix = raw[0] ?? ' ';
    const text = raw.slice(1);
    const kind = prefix === '-' ? 'remove' : prefix === '+' ? 'add' : 'context';
    if (prefix !== ' ' && prefix !== '-' && prefix !== '+' && raw !== '')
      throw new Error(`bad chunk line ${raw}`);
    return { kind, text, line: i + 2 };
  });
  const anchors: Anchor[] = (spec.anchors ?? []).map((text, i) => ({ text, line: i + 1 }));
  return {
    anchors,
    lines,
    endOfFile: spec.endOfFile ?? false,
    line: 1,
    ...(spec.hint ? { hint: spec.hint } : {}),
  };
}

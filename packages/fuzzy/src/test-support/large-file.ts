import type { Chunk } from '@patchsmith/core';

/** A deterministic code-like file of `count` lines: unique lines with frequent repeated ones (`}`, blanks). */
export function largeFile(count: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 10 === 9) lines.push('  }');
    else if (i % 10 === 0) lines.push('');
    else lines.push(`  const v${i} = compute(${(i * 2654435761) % 1000003}, "k-${i % 97}");`);
  }
  return lines;
}

/** `count` chunks spread evenly over the file, each 3 context lines, 1 removed, 1 added, in file order. */
export function spreadChunks(
  lines: readonly string[],
  count: number,
  drift: (line: string) => string,
): { chunks: Chunk[]; starts: number[] } {
  const step = Math.floor(lines.length / count);
  const chunks: Chunk[] = [];
  const starts: number[] = [];
  for (let c = 0; c < count; c++) {
    const start = c * step + 3;
    starts.push(start);
    chunks.push({
      anchors: [],
      endOfFile: false,
      line: c,
      lines: [
        { kind: 'context', text: drift(lines[start]!), line: 0 },
        { kind: 'context', text: drift(lines[start + 1]!), line: 0 },
        { kind: 'remove', text: drift(lines[start + 2]!), line: 0 },
        { kind: 'add', text: `  replaced(${c});`, line: 0 },
        { kind: 'context', text: drift(lines[start + 3]!), line: 0 },
      ],
    });
  }
  return { chunks, starts };
}

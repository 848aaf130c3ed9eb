import type { PlannedFile } from '@patchsmith/planner';

/** How an indentation shift reads to a person: `+2 spaces` when the file has more, `-1 tab` when less. */
function describeIndent(prefix: string, side: 'file' | 'patch'): string {
  const tabs = [...prefix].filter((ch) => ch === '\t').length;
  const spaces = prefix.length - tabs;
  const parts = [
    spaces ? `${spaces} space${spaces > 1 ? 's' : ''}` : '',
    tabs ? `${tabs} tab${tabs > 1 ? 's' : ''}` : '',
  ]
    .filter(Boolean)
    .join(' + ');
  return `${side === 'file' ? '+' : '-'}${parts}`;
}

/**
 * One line per chunk that needed a tolerant pass, so users see how far the model's copy drifted;
 * exact matches say nothing.
 */
export function tolerantMatchNotes(file: PlannedFile): string[] {
  return [...mergeNotes(file), ...formatterNotes(file), ...chunkNotes(file)];
}

/** Which formatter ran on the file, so the model knows the diff holds its changes too (or why it did not). */
function formatterNotes(file: PlannedFile): string[] {
  if (file.formatted === undefined) return [];
  const { by, ok, note } = file.formatted;
  return [
    ok ? `formatted by ${by} before writing (the diff includes its changes)` : `not formatted: ${note ?? by}`,
  ];
}

/** A change that landed elsewhere than where the model read it. */
const movedChange = (m: { read: number; now: number }) => m.read !== m.now;

/**
 * What a merge did, so the model knows the file changed under it: its changes and where they are
 * now (chunks' lines are of the version it read).
 */
function mergeNotes(file: PlannedFile): string[] {
  if (file.merged === undefined) return [];
  const moved = file.merged.moved.filter(movedChange);
  const where = moved.map((m) => `line ${m.read} is now line ${m.now}`).join(', ');
  return [
    `the file changed since it was read; the edit was merged into it as it is now${where ? ` (${where})` : ''}; re-read it before the next edit`,
  ];
}

/** The chunks that needed a tolerant pass, with how far they drifted. */
function chunkNotes(file: PlannedFile): string[] {
  return file.chunks
    .filter((c) => c.pass !== 'exact')
    .map((c) => {
      const indent = c.indent ? `, indentation ${describeIndent(c.indent.prefix, c.indent.side)}` : '';
      const restyled = c.reindented ? "; added lines re-indented to the file's style" : '';
      return `chunk ${c.chunk + 1} at line ${c.line}: matched by the ${c.pass} pass${indent}${restyled}`;
    });
}

import type { Chunk } from '@patchsmith/core';
import type { ChunkLocation, LineList, ReplacementLine } from '@patchsmith/fuzzy';

/** A located chunk whose added lines may have been re-indented to the file's style. */
export type RestyledLocation = ChunkLocation & { reindented?: true };

/** An indentation made of one character repeated (`\t\t`, `    `), or none. */
interface Indent {
  char: ' ' | '\t' | '';
  count: number;
}

// The pass that matched lines whose leading whitespace differs other than by one shared prefix
// (that case, pass 3, already moves the added lines by the prefix).
const isWhitespaceTolerant = (pass: ChunkLocation['pass']) => pass === 'trimmed';

/** A line's indentation when it is all tabs or all spaces, else null (mixed: no style to map). */
function indentOf(text: string): Indent | null {
  const lead = /^[ \t]*/.exec(text)![0];
  if (lead === '') return { char: '', count: 0 };
  if (/^ +$/.test(lead)) return { char: ' ', count: lead.length };
  if (/^\t+$/.test(lead)) return { char: '\t', count: lead.length };
  return null;
}

/** How the patch's indentation maps to the file's: `patch` characters make `file` characters. */
interface Style {
  patchChar: ' ' | '\t';
  fileChar: ' ' | '\t';
  patch: number;
  file: number;
}

/**
 * The one proportional mapping every indented old line of the chunk shares with its matched file
 * line (4 spaces to a tab, 2 spaces to 4), or null when they disagree or are the same style.
 */
function learnStyle(oldLines: readonly string[], fileLines: readonly string[]): Style | null {
  let style: Style | null = null;
  for (let i = 0; i < Math.min(oldLines.length, fileLines.length); i++) {
    const fromPatch = indentOf(oldLines[i]!);
    const fromFile = indentOf(fileLines[i]!);
    if (fromPatch === null || fromFile === null) return null;
    if (oldLines[i]!.trim() === '') continue;
    if (fromPatch.count === 0 || fromFile.count === 0) {
      if (fromPatch.count !== fromFile.count) return null;
      continue;
    }
    const pair: Style = {
      patchChar: fromPatch.char as ' ' | '\t',
      fileChar: fromFile.char as ' ' | '\t',
      patch: fromPatch.count,
      file: fromFile.count,
    };
    if (style === null) style = pair;
    const same =
      style.patchChar === pair.patchChar &&
      style.fileChar === pair.fileChar &&
      style.patch * pair.file === pair.patch * style.file;
    if (!same) return null;
  }
  if (style === null || (style.patchChar === style.fileChar && style.patch === style.file)) return null;
  return style;
}

/** An added line in the file's style, or null when its indentation does not convert evenly. */
function restyle(text: string, style: Style): string | null {
  const indent = indentOf(text);
  if (indent === null || text.trim() === '') return null;
  if (indent.count === 0) return text;
  if (indent.char !== style.patchChar || (indent.count * style.file) % style.patch !== 0) return null;
  return style.fileChar.repeat((indent.count * style.file) / style.patch) + text.slice(indent.count);
}

/**
 * SPEC §2 pass 4, amended: when a chunk matched only by tolerating leading whitespace and the
 * file indents in another style than the patch (tabs where the model wrote spaces, or another
 * width), the added lines are re-indented the same way the matched lines differ, so the file keeps
 * one style; `reindented` says it was done. A line that does not convert evenly stays as written.
 */
export function keepFileIndentation(
  location: ChunkLocation,
  chunk: Chunk,
  fileLines: LineList,
): RestyledLocation {
  if (!isWhitespaceTolerant(location.pass)) return location;
  const oldLines = chunk.lines.filter((l) => l.kind !== 'add').map((l) => l.text);
  const matched: string[] = [];
  for (let i = location.start; i < location.start + location.length; i++) matched.push(fileLines.at(i)!);
  const style = learnStyle(oldLines, matched);
  if (style === null) return location;
  let changed = false;
  const replacement = location.replacement.map((piece): ReplacementLine => {
    if (piece.from !== 'patch') return piece;
    const text = restyle(piece.text, style);
    if (text === null || text === piece.text) return piece;
    changed = true;
    return { from: 'patch', text };
  });
  return changed ? { ...location, replacement, reindented: true } : location;
}

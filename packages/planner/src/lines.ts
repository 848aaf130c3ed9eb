import { type Line, type LineEnding, LineModel } from '@patchsmith/core';

/**
 * Lines held one by one, as an edit window holds them: a plain array, or the lines of a
 * `LineIndex` (where only the lines asked for are made into objects).
 */
export interface LineSource {
  readonly length: number;
  at(index: number): Line | undefined;
}

/** A text's lines as objects, each with its own ending (core's `LineModel` split). */
export function splitLines(text: string): Line[] {
  return LineModel.of(text).toLines();
}

/** Lines `[from, to)` as an array. */
export function linesBetween(lines: LineSource, from: number, to: number): Line[] {
  const out: Line[] = [];
  for (let i = Math.max(0, from); i < Math.min(to, lines.length); i++) out.push(lines.at(i)!);
  return out;
}

/** The inverse of `splitLines`. */
export function joinLines(lines: readonly Line[]): string {
  // Array join yields a flat string; `+=` would build a rope that later scans pay for.
  const parts = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) parts[i] = lines[i]!.text + lines[i]!.ending;
  return parts.join('');
}

/** The ending new lines take: the first line's (only a last line lacks one), LF when there is none. */
export function firstEnding(lines: LineSource): Exclude<LineEnding, ''> {
  const first = lines.at(0)?.ending;
  return first === undefined || first === '' ? '\n' : first;
}

/** Whether the file ends with a line ending; an empty file counts as terminated, so lines added to it end with one. */
export function hasFinalNewline(lines: LineSource): boolean {
  const last = lines.at(lines.length - 1);
  return last === undefined || last.ending !== '';
}

/**
 * Repairs endings after lines were inserted or removed: a line that is no longer last gets an
 * ending (the file's first), and the last line follows the file's original final-newline state.
 */
export function settleEndings(lines: Line[], ending: Exclude<LineEnding, ''>, finalNewline: boolean): Line[] {
  return lines.map((line, i) => {
    const isLast = i === lines.length - 1;
    if (!isLast) return line.ending === '' ? { text: line.text, ending } : line;
    if (!finalNewline) return line.ending === '' ? line : { text: line.text, ending: '' };
    return line.ending === '' ? { text: line.text, ending } : line;
  });
}

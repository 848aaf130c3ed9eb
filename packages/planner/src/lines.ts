import { type Line, type LineEnding, LineModel } from '@patchsmith/core';

/** A text's lines as objects, each with its own ending. */
export function splitLines(text: string): Line[] {
  return LineModel.of(text).toLines();
}

/** The inverse of `splitLines`. */
export function joinLines(lines: readonly Line[]): string {
  // Array join yields a flat string; `+=` would build a rope that later scans pay for.
  const parts = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) parts[i] = lines[i]!.text + lines[i]!.ending;
  return parts.join('');
}

/** The ending new lines take: the file's first one, LF when the file has none. */
export function firstEnding(lines: readonly Line[]): Exclude<LineEnding, ''> {
  for (const line of lines) if (line.ending !== '') return line.ending;
  return '\n';
}

/** Whether the file ends with a line ending; an empty file counts as terminated, so lines added to it end with one. */
export function hasFinalNewline(lines: readonly Line[]): boolean {
  const last = lines[lines.length - 1];
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


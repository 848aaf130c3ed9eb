/** A line ending as found in a file; only a file's last line may have none. */
export type LineEnding = '' | '\n' | '\r\n' | '\r';

/** A line with its own ending, as a caller that builds lines one by one holds it. */
export interface Line {
  text: string;
  ending: LineEnding;
}

const LF = 10;
const CR = 13;

/**
 * A text as lines without a line object per line: the string, and where each line starts.
 * `\r\n`, `\n` and a bare `\r` all end a line; an ending belongs to the line it ends, and a final
 * ending starts no empty line (`'a\n'` is one line, `''` none). A line's text and ending are
 * sliced when asked for, so a 100,000-line file costs one `Int32Array`, not 100,000 objects.
 * Joining every line with its ending gives the text back, whatever it holds.
 */
export class LineModel {
  /** How many lines. */
  readonly length: number;

  private constructor(
    /** The whole text. */
    readonly text: string,
    /** `starts[i]`: where line i starts; `starts[length]` is the text's length. */
    readonly starts: Int32Array,
  ) {
    this.length = starts.length - 1;
  }

  /**
   * Splits `text`. Most texts hold no CR: then each line's end is found by `indexOf`, which V8
   * runs as a vectorised search; else one `charCodeAt` pass decides each ending.
   */
  static of(text: string): LineModel {
    const length = text.length;
    const starts = new Starts(length);
    if (length > 0) starts.push(0);
    if (text.indexOf('\r') === -1) {
      for (let at = text.indexOf('\n'); at !== -1 && at + 1 < length; at = text.indexOf('\n', at + 1))
        starts.push(at + 1);
    } else {
      for (let i = 0; i < length; i++) {
        const code = text.charCodeAt(i);
        if (code !== LF && code !== CR) continue;
        if (code === CR && text.charCodeAt(i + 1) === LF) i++;
        if (i + 1 < length) starts.push(i + 1);
      }
    }
    starts.push(length);
    return new LineModel(text, starts.done());
  }

  /** Where line `i`'s text ends (its ending, if any, starts there). */
  textEnd(i: number): number {
    const start = this.starts[i]!;
    const end = this.starts[i + 1]!;
    if (end === start) return end;
    const last = this.text.charCodeAt(end - 1);
    if (last === LF) return end - 1 > start && this.text.charCodeAt(end - 2) === CR ? end - 2 : end - 1;
    return last === CR ? end - 1 : end;
  }

  /** Line `i`'s text, without its ending; undefined past the last line (as an array's `at`). */
  at(i: number): string | undefined {
    if (i < 0 || i >= this.length) return undefined;
    return this.text.slice(this.starts[i]!, this.textEnd(i));
  }

  /** Line `i`'s ending (`''` only on an unterminated last line). */
  ending(i: number): LineEnding {
    return this.text.slice(this.textEnd(i), this.starts[i + 1]!) as LineEnding;
  }

  /** Lines `[from, to)` with their endings, as one slice of the text. */
  raw(from: number, to: number): string {
    return this.text.slice(this.starts[from]!, this.starts[to]!);
  }

  /** The ending new lines take: the file's first one, LF when the file has none. */
  firstEnding(): Exclude<LineEnding, ''> {
    const first = this.length === 0 ? '' : this.ending(0);
    // Only a last line lacks an ending, so the first line's ending is the first ending there is.
    return first === '' ? '\n' : first;
  }

  /** Whether the text ends with a line ending; an empty text counts as terminated, so lines added to it end with one. */
  hasFinalNewline(): boolean {
    return this.length === 0 || this.textEnd(this.length - 1) !== this.text.length;
  }

  /** The lines as objects, for a caller that edits them one by one. */
  toLines(): Line[] {
    const lines = new Array<Line>(this.length);
    for (let i = 0; i < this.length; i++) lines[i] = { text: this.at(i)!, ending: this.ending(i) };
    return lines;
  }
}

/** A growing list of line starts. */
class Starts {
  private list: Int32Array;
  private count = 0;

  constructor(textLength: number) {
    // About one line per 32 characters to begin with, so most texts never grow it.
    this.list = new Int32Array(Math.max(16, (textLength >> 5) + 2));
  }

  push(at: number): void {
    if (this.count === this.list.length) {
      const grown = new Int32Array(this.list.length * 2);
      grown.set(this.list);
      this.list = grown;
    }
    this.list[this.count++] = at;
  }

  done(): Int32Array {
    return this.list.slice(0, this.count);
  }
}

import { resolve } from 'node:path';
import type { Io } from './io.js';
import { flag, option, type ParsedCommandLine } from './parse-command-line.js';

// A character that would act on the terminal or start a line of its own: C0 (newline included), DEL, C1.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text from the store or the tree (a snapshot's message, a journal's paths) as one line of output:
 * every control character written as its JSON escape, so it can neither drive the terminal nor
 * forge a line.
 */
export const printable = (text: string): string =>
  text.replace(CONTROL, (char) => JSON.stringify(char).slice(1, -1));

/** Colour only on a terminal, and never with NO_COLOR set to anything (https://no-color.org). */
export const wantsColor = (io: Io): boolean => io.isTTY && !io.env.NO_COLOR;

/** The command's answer as one JSON document on stdout. */
export function printJson(io: Io, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** A success message on stdout, unless `--quiet`. */
export function say(io: Io, parsed: ParsedCommandLine, text: string): void {
  if (!flag(parsed, 'quiet')) io.stdout(text);
}

/** The folder a command works in: `--cwd` from the working directory, or the working directory. */
export function rootOf(io: Io, parsed: ParsedCommandLine): string {
  return resolve(io.cwd, option(parsed, 'cwd') ?? '.');
}

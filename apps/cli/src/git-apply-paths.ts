import { realpath } from 'node:fs/promises';
import { isAbsolute, posix, relative, sep } from 'node:path';
import { type EditScript, locateStateDir, type Operation, type Result, trimTrailing } from '@patchsmith/core';
import type { EditInput } from '@patchsmith/tool';
import { type Io, UsageError } from './io.js';
import { mapPaths } from './operation-paths.js';
import { printable } from './output.js';
import { flag, option, type ParsedCommandLine } from './parse-command-line.js';

/**
 * `git apply` run below a repository's top (apply.c `prefix_patch`, `use_patch`,
 * `guess_p_value`): a `diff --git` section names its paths from the top, so a path inside the
 * working folder loses the folder's prefix and a section whose (new) path lies outside it is
 * skipped; a traditional `---`/`+++` section is relative to the working folder, unless its names
 * start with that folder (a diff made at the top). Every other format is relative to the working
 * folder. `--directory DIR` goes in front of every path first, as git's does. The transaction
 * still checks every path that comes out of here against the root.
 */
export interface GitApplyPaths {
  /** The root's folder from its repository's top, with a final `/` (`src/app/`); '' at the top or outside a repository. */
  prefix: string;
  /** `--directory DIR`, put in front of every path of the edit. */
  directory?: string;
  /** The edit's text as given: its `line` numbers point into it. */
  text: string;
}

/** The root's folder from the top of the repository holding it, `/`-separated with a final `/` (or ''). */
export async function repositoryPrefix(root: string): Promise<string> {
  const real = await realpath(root);
  const { workTree } = await locateStateDir(real);
  if (workTree === null) return '';
  const rel = relative(workTree, real).split(sep).join('/');
  return rel === '' ? '' : `${rel}/`;
}

/** The path git decides a section by: the new name (a move's destination), else the old one. */
const decidingPath = (op: Operation) =>
  'movePath' in op && op.movePath !== undefined ? op.movePath : op.path;

/** What a section is called in "Skipped patch" (`old => new` for a move, as git prints it). */
const sectionName = (op: Operation) =>
  'movePath' in op && op.movePath !== undefined ? `${op.path} => ${op.movePath}` : op.path;

// A path below `prefix`, compared as text as git's `skip_prefix` does (containment is the transaction's).
const isBelow = (path: string, prefix: string) => path.startsWith(prefix) && path.length > prefix.length;

/**
 * The script with `git apply`'s paths: `skipped` receives the name of every `diff --git` section
 * left out because it lies outside the working folder. Every section outside it is a refusal,
 * never an apply that did nothing.
 */
export function gitApplyPaths(
  script: EditScript,
  rule: GitApplyPaths,
  skipped: string[],
): Result<EditScript> {
  const lines = rule.text.split('\n');
  // A unified diff's section that starts with a `diff --git` line (its `line` is the header's).
  const isGitSection = (op: Operation) =>
    script.format === 'unified' && (lines[op.line - 1] ?? '').startsWith('diff --git ');
  const { prefix, directory } = rule;
  const up = '../'.repeat(prefix.split('/').length - 1);
  const kept: Operation[] = [];
  for (const op of script.operations) {
    if (directory !== undefined) mapPaths(op, (path) => `${directory}/${path}`);
    if (prefix !== '' && isGitSection(op)) {
      if (!isBelow(decidingPath(op), prefix)) {
        skipped.push(sectionName(op));
        continue;
      }
      // A move's source outside the folder still leads out of the root: the transaction refuses it.
      mapPaths(op, (path) => (isBelow(path, prefix) ? path.slice(prefix.length) : `${up}${path}`));
    } else if (prefix !== '' && script.format === 'unified' && isBelow(op.path, prefix)) {
      mapPaths(op, (path) => (isBelow(path, prefix) ? path.slice(prefix.length) : path));
    }
    kept.push(op);
  }
  if (kept.length === 0 && skipped.length > 0) {
    return {
      ok: false,
      errors: [
        {
          code: 'PATH_OUTSIDE_ROOT',
          message: `every file of the patch lies outside ${prefix}, the folder it is applied in: a 'diff --git' patch names its paths from the repository's top, and git apply skips those outside the current folder; apply it from the top`,
          path: skipped[0]!,
        },
      ],
    };
  }
  return { ok: true, value: { ...script, operations: kept } };
}

/** `--directory DIR`: a relative folder, without its final `/`. */
function directoryOf(parsed: ParsedCommandLine): string | undefined {
  const given = option(parsed, 'directory');
  if (given === undefined) return undefined;
  const directory = trimTrailing(given, '/');
  if (directory === '' || posix.isAbsolute(directory) || isAbsolute(directory))
    throw new UsageError(`--directory ${given}: expected a folder relative to the root`);
  return directory;
}

export interface GitApplyMapping {
  mapScript: (script: EditScript) => Result<EditScript>;
  /** Filled while the edit is planned: the sections left out. */
  skipped: string[];
  prefix: string;
}

/** A host's `mapScript` for `runEdit`/`planEdit` with `git apply`'s paths, and the sections it skipped. */
export async function gitApplyMapping(
  root: string,
  input: EditInput,
  parsed: ParsedCommandLine,
): Promise<GitApplyMapping> {
  const directory = directoryOf(parsed);
  const rule: GitApplyPaths = {
    prefix: await repositoryPrefix(root),
    ...(directory !== undefined && { directory }),
    text: input.kind === 'patch' ? input.text : '',
  };
  const skipped: string[] = [];
  return { mapScript: (script) => gitApplyPaths(script, rule, skipped), skipped, prefix: rule.prefix };
}

/** One line on stderr per skipped section (git prints them only with -v; here always, unless --quiet). */
export function saySkipped(io: Io, parsed: ParsedCommandLine, { skipped, prefix }: GitApplyMapping): void {
  if (flag(parsed, 'quiet')) return;
  for (const name of skipped)
    io.stderr(
      `Skipped patch '${printable(name)}': it lies outside ${printable(prefix)}, where it is applied\n`,
    );
}

/** A command's JSON document with the skipped sections added (`skipped`, when there are any). */
export function withSkipped(json: string, skipped: readonly string[]): string {
  if (skipped.length === 0) return json;
  return `${JSON.stringify({ ...JSON.parse(json), skipped }, null, 2)}\n`;
}

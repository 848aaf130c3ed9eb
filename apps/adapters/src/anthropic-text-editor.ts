import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ToolTextEditor20250728 } from '@anthropic-ai/sdk/resources/messages';
import { type EditError, type StrReplaceCommand, toTreePath } from '@patchsmith/core';
import { listSnapshots } from '@patchsmith/snapshot';
import { type EditReport, formatForModel, oneAtATime, runEdit, undoLast, viewFile } from '@patchsmith/tool';
import type { AdapterOptions } from './options.js';
import { withSignal } from './tool-actions.js';

/** Options of the text editor: the adapter's, and how long a `view` may be. */
export interface TextEditorOptions extends AdapterOptions {
  /**
   * The longest `view` text, in characters; a longer file is cut at a whole line with a note
   * saying how to see the rest. Put the same number in the tool definition's `max_characters`
   * (`createTextEditorRunnableTool` does). Default: no limit.
   */
  maxCharacters?: number;
}

/** The text editor tool to list in a Messages API request's `tools` (Claude 4 models). */
export const TEXT_EDITOR_TOOL: ToolTextEditor20250728 = {
  type: 'text_editor_20250728',
  name: 'str_replace_based_edit_tool',
};

/** What the model sent in the tool_use block's `input` (older models also send `undo_edit`). */
export interface TextEditorInput {
  command: 'view' | 'create' | 'str_replace' | 'insert' | 'undo_edit' | (string & {});
  path?: string;
  view_range?: number[];
  file_text?: string;
  old_str?: string;
  new_str?: string;
  insert_line?: number;
  /** Claude 4 models send the inserted text as `insert_text`, the documentation says `new_str`. */
  insert_text?: string;
}

/** The content of the tool_result block to send back, and its `is_error`. */
export interface TextEditorResult {
  content: string;
  isError: boolean;
}

const error = (content: string): TextEditorResult => ({ content, isError: true });

/** A tool input the model could have sent: an object (the SDK hands over whatever came). */
function isInputObject(input: unknown): input is TextEditorInput {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}

/**
 * The latest snapshot, not yet undone, of an edit that touched the path (canonical, relative to
 * the root), or why there is none.
 */
async function latestEditOf(root: string, path: string): Promise<{ id: string } | { message: string }> {
  const tree = toTreePath(path, { root, realRoot: await realpath(root).catch(() => root) });
  if (!tree.ok) return { message: tree.message };
  const found = (await listSnapshots({ root })).find(
    (s) => s.invalid === null && s.undone === null && s.paths.includes(tree.rel),
  );
  return found ? { id: found.id } : { message: `No edit history found for ${path}.` };
}

/** `undo_edit`: restores the latest edit that touched the path (all of that edit's files). */
async function undoEditOf(path: string, options: AdapterOptions): Promise<TextEditorResult> {
  const root = resolve(options.root ?? process.cwd());
  const latest = await latestEditOf(root, path);
  if ('message' in latest) return error(`Error: ${latest.message}`);
  const undone = await undoLast({
    root,
    id: latest.id,
    lockTimeoutMs: options.lockTimeoutMs,
    ...(options.ask ? { ask: options.ask } : {}),
  });
  if (!undone.ok)
    return error(`Error: ${undone.errors[0]?.message ?? `the last edit of ${path} was not undone`}`);
  return {
    content: `Last edit to ${path} undone; ${undone.files.map((f) => f.path).join(', ')} restored.`,
    isError: false,
  };
}

/** Whether a file or folder is at the path (under the edit path policy: a refused path is no file). */
async function exists(path: string, root: string | undefined): Promise<boolean> {
  const viewed = await viewFile({
    ...(root !== undefined ? { root } : {}),
    path,
    maxEntries: 1,
    maxCharacters: 1,
  });
  return viewed.ok;
}

/** The documented error text for a rejected edit; patchsmith's details (nearest region...) follow it. */
function documentedError(first: EditError | undefined): string {
  switch (first?.code) {
    case 'FILE_NOT_FOUND':
      return 'Error: File not found';
    case 'AMBIGUOUS':
      return `Error: Found ${first.candidates?.length ?? 'several'} matches for replacement text. Please provide more context to make a unique match.`;
    case 'NO_MATCH':
      return 'Error: No match found for replacement. Please check your text and try again.';
    case 'DENIED':
      return 'Error: Permission denied. Cannot write to file.';
    default:
      return `Error: ${first?.message ?? 'the edit was rejected'}`;
  }
}

function editResult(report: EditReport, success: string): TextEditorResult {
  if (report.ok) return { content: `${success}\n${formatForModel(report)}`, isError: false };
  return error(`${documentedError(report.errors[0])}\n\n${formatForModel(report)}`);
}

/** The str_replace command a text-editor input stands for, or the error text when it is malformed. */
function toCommand(input: TextEditorInput, path: string): StrReplaceCommand | string {
  switch (input.command) {
    case 'create':
      if (typeof input.file_text !== 'string')
        return 'Error: Parameter `file_text` is required for command: create';
      return { command: 'create', path, file_text: input.file_text };
    case 'str_replace':
      if (typeof input.old_str !== 'string')
        return 'Error: Parameter `old_str` is required for command: str_replace';
      return { command: 'str_replace', path, old_str: input.old_str, new_str: input.new_str ?? '' };
    case 'insert': {
      const text = input.insert_text ?? input.new_str;
      if (typeof input.insert_line !== 'number')
        return 'Error: Parameter `insert_line` is required for command: insert';
      if (typeof text !== 'string') return 'Error: Parameter `insert_text` is required for command: insert';
      return { command: 'insert', path, insert_line: input.insert_line, new_str: text };
    }
    default:
      return `Error: Unrecognized command ${String(input.command)}. The allowed commands are: view, create, str_replace, insert, undo_edit`;
  }
}

/**
 * Carries out one command of Anthropic's text editor tool (`view`, `create`, `str_replace`,
 * `insert`, and `undo_edit`, which restores the latest edit when it touched that path) and
 * answers the tool_result content with the documented error texts.
 */
export async function handleTextEditorCommand(
  input: TextEditorInput,
  options: TextEditorOptions = {},
): Promise<TextEditorResult> {
  if (!isInputObject(input)) return error('Error: the tool input must be an object with a `command`');
  const { maxCharacters, ...runOptions } = options;
  const path = input.path;
  if (typeof path !== 'string' || path === '') return error('Error: Parameter `path` is required');
  if (input.command === 'view') {
    const viewed = await viewFile({
      root: options.root,
      path,
      ...(input.view_range ? { view_range: input.view_range } : {}),
      ...(maxCharacters !== undefined ? { maxCharacters } : {}),
    });
    if (viewed.ok) return { content: viewed.text, isError: false };
    return error(viewed.code === 'FILE_NOT_FOUND' ? 'Error: File not found' : `Error: ${viewed.message}`);
  }
  if (input.command === 'undo_edit') return undoEditOf(path, runOptions);
  const command = toCommand(input, path);
  if (typeof command === 'string') return error(command);
  // The tool's contract: `create` makes a new file and never overwrites one.
  if (command.command === 'create' && (await exists(path, runOptions.root))) {
    return error(`Error: File already exists at: ${path}. Cannot overwrite files using command \`create\`.`);
  }
  const report = await runEdit({ kind: 'edits', edits: [command] }, runOptions);
  const success =
    command.command === 'create'
      ? `File created successfully at: ${path}`
      : `The file ${path} has been edited.`;
  return editResult(report, success);
}

/**
 * The tool for the SDK's tool runner (`client.beta.messages.toolRunner({ tools: [...] })`): the
 * definition plus `run`. An error result is thrown, which the runner sends back with `is_error`.
 * Calls run one at a time, in the order the model made them.
 */
export function createTextEditorRunnableTool(options: TextEditorOptions = {}) {
  const queue = oneAtATime();
  return {
    ...TEXT_EDITOR_TOOL,
    ...(options.maxCharacters !== undefined ? { max_characters: options.maxCharacters } : {}),
    parse: (content: unknown) => content as TextEditorInput,
    // The runner's context carries its signal (aborted runner, stopped session, tool timeout).
    run: async (input: TextEditorInput, context?: { signal?: AbortSignal | null }) => {
      const result = await queue(() => handleTextEditorCommand(input, withSignal(options, context?.signal)));
      // The runner prefixes a thrown error's message with "Error: " itself.
      if (result.isError) throw new Error(result.content.replace(/^Error: /, ''));
      return result.content;
    },
  };
}

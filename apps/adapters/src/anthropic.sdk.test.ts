import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempProject } from '../../../tooling/test-support/fixtures.js';
import {
  createTextEditorRunnableTool,
  handleTextEditorCommand,
  TEXT_EDITOR_TOOL,
  type TextEditorInput,
} from './anthropic-text-editor.js';

type Project = Awaited<ReturnType<typeof tempProject>>;

interface SentRequest {
  tools: { type: string; name: string }[];
  messages: { role: string; content: unknown }[];
}

/**
 * A Messages API stand-in behind the SDK's own `fetch` option: the first reply uses the text
 * editor with the given inputs, the next one ends the turn. No network is involved.
 */
function scriptedFetch(inputs: TextEditorInput[], sent: SentRequest[]): typeof fetch {
  return async (_url, init) => {
    sent.push(JSON.parse(String(init?.body)) as SentRequest);
    const content =
      sent.length === 1
        ? inputs.map((input, i) => ({
            type: 'tool_use',
            id: `toolu_${i}`,
            name: TEXT_EDITOR_TOOL.name,
            input,
          }))
        : [{ type: 'text', text: 'done' }];
    const message = {
      id: `msg_${sent.length}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content,
      stop_reason: sent.length === 1 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    return new Response(JSON.stringify(message), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

/** The tool_result blocks the runner sent back on its second request. */
function toolResults(sent: SentRequest[]) {
  const last = sent[1]!.messages.at(-1)!;
  return (
    last.content as { type: string; tool_use_id: string; content: unknown; is_error?: boolean }[]
  ).filter((b) => b.type === 'tool_result');
}

const resultText = (content: unknown) =>
  typeof content === 'string' ? content : (content as { text: string }[]).map((c) => c.text).join('');

describe('the text editor tool in the SDK tool runner', () => {
  let project: Project;
  beforeEach(async () => {
    project = await tempProject({ 'primes.py': 'def is_prime(n):\n    return n > 1\n' });
  });
  afterEach(async () => {
    await project.remove();
  });

  async function run(inputs: TextEditorInput[]) {
    const sent: SentRequest[] = [];
    const client = new Anthropic({ apiKey: 'test-key', fetch: scriptedFetch(inputs, sent), maxRetries: 0 });
    const final = await client.beta.messages.toolRunner({
      model: 'claude-sonnet-5-5',
      max_tokens: 1024,
      thread: false,
      messages: [{ role: 'user', content: 'Look at primes.py' }],
      tools: [createTextEditorRunnableTool({ root: project.root })],
    });
    return { final, sent };
  }

  it('declares the tool and answers view commands, errors with is_error', async () => {
    const { final, sent } = await run([
      { command: 'view', path: 'primes.py' },
      { command: 'view', path: 'missing.py' },
    ]);
    expect(final.content).toMatchObject([{ type: 'text', text: 'done' }]);
    expect(sent[0]!.tools).toEqual([{ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' }]);
    const [view, missing] = toolResults(sent);
    expect(view).toMatchObject({ tool_use_id: 'toolu_0' });
    expect(view!.is_error ?? false).toBe(false);
    expect(resultText(view!.content)).toBe(
      "Here's the result of running `cat -n` on primes.py:\n     1\tdef is_prime(n):\n     2\t    return n > 1\n",
    );
    expect(missing).toMatchObject({ tool_use_id: 'toolu_1', is_error: true });
    expect(resultText(missing!.content)).toBe('Error: File not found');
  });

  it('carries out str_replace and insert (insert_text) through the runner', async () => {
    const { sent } = await run([
      {
        command: 'str_replace',
        path: 'primes.py',
        old_str: 'return n > 1',
        new_str: 'return n > 1 and all(n % d for d in range(2, n))',
      },
      { command: 'insert', path: 'primes.py', insert_line: 0, insert_text: '"""Primes."""\n' },
    ]);
    expect(toolResults(sent).map((r) => r.is_error ?? false)).toEqual([false, false]);
    expect(await project.read('primes.py')).toBe(
      '"""Primes."""\ndef is_prime(n):\n    return n > 1 and all(n % d for d in range(2, n))\n',
    );
  });
});

describe('the runnable tool and the runner signal', () => {
  it('passes the signal of its run context on: aborted, nothing is written', async () => {
    const project = await tempProject({});
    try {
      const controller = new AbortController();
      controller.abort();
      const tool = createTextEditorRunnableTool({ root: project.root });
      const input = { command: 'create', path: 'new.txt', file_text: 'x\n' };
      await expect(tool.run(input, { signal: controller.signal })).rejects.toThrow(/ABORTED/);
      await expect(project.read('new.txt')).rejects.toThrow();
      expect(await tool.run(input, { signal: null })).toMatch(/^File created successfully/);
    } finally {
      await project.remove();
    }
  });
});

describe('handleTextEditorCommand', () => {
  let project: Project;
  beforeEach(async () => {
    project = await tempProject({ 'a.txt': 'x\ny\nx\n' });
  });
  afterEach(async () => {
    await project.remove();
  });

  it.each([
    [{ command: 'view' }, 'Error: Parameter `path` is required'],
    [{ command: 'create', path: 'b.txt' }, 'Error: Parameter `file_text` is required for command: create'],
    [
      { command: 'str_replace', path: 'a.txt' },
      'Error: Parameter `old_str` is required for command: str_replace',
    ],
    [
      { command: 'insert', path: 'a.txt', insert_text: 'z' },
      'Error: Parameter `insert_line` is required for command: insert',
    ],
    [{ command: 'rename', path: 'a.txt' }, 'Error: Unrecognized command rename.'],
    [{ command: 'view', path: '../../etc/passwd' }, 'Error: path leads outside the root'],
  ])('answers %j with the documented error', async (input, text) => {
    const result = await handleTextEditorCommand(input as TextEditorInput, { root: project.root });
    expect(result.isError).toBe(true);
    expect(result.content.startsWith(text)).toBe(true);
  });

  it('views a range of lines', async () => {
    const result = await handleTextEditorCommand(
      { command: 'view', path: 'a.txt', view_range: [2, 2] },
      { root: project.root },
    );
    expect(result).toEqual({
      content: "Here's the result of running `cat -n` on a.txt:\n     2\ty\n",
      isError: false,
    });
  });

  it('maps AMBIGUOUS and NO_MATCH to the documented texts, with the details after them', async () => {
    const ambiguous = await handleTextEditorCommand(
      { command: 'str_replace', path: 'a.txt', old_str: 'x', new_str: 'z' },
      { root: project.root },
    );
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.content).toMatch(
      /^Error: Found 2 matches for replacement text\. Please provide more context/,
    );
    const none = await handleTextEditorCommand(
      { command: 'str_replace', path: 'a.txt', old_str: 'nothing like it', new_str: 'z' },
      { root: project.root },
    );
    expect(none.content).toMatch(
      /^Error: No match found for replacement\. Please check your text and try again\./,
    );
    expect(await project.read('a.txt')).toBe('x\ny\nx\n');
  });

  it('creates a file and undoes it with undo_edit', async () => {
    const created = await handleTextEditorCommand(
      { command: 'create', path: 'new.txt', file_text: 'hello\n' },
      { root: project.root },
    );
    expect(created.content.startsWith('File created successfully at: new.txt')).toBe(true);
    const undone = await handleTextEditorCommand(
      { command: 'undo_edit', path: 'new.txt' },
      { root: project.root },
    );
    expect(undone).toEqual({ content: 'Last edit to new.txt undone; new.txt restored.', isError: false });
    await expect(project.read('new.txt')).rejects.toThrow();
  });

  it('has no edit history to undo in a fresh project', async () => {
    const result = await handleTextEditorCommand(
      { command: 'undo_edit', path: 'a.txt' },
      { root: project.root },
    );
    expect(result.isError).toBe(true);
    expect(result.content.startsWith('Error: No edit history found for a.txt.')).toBe(true);
  });
});

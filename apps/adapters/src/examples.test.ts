/**
 * The examples run (each with its SDK's mock model or a scripted fetch, no network), and the
 * README host sections are copied from them: the snippet between `readme:start` and `readme:end`,
 * after the example's imports, appears in the repository README as it is in the file.
 */
import { readFile } from 'node:fs/promises';
import Anthropic from '@anthropic-ai/sdk';
import { AIMessageChunk } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { FakeListChatModel, FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { Usage } from '@openai/agents';
import { MockLanguageModelV3 } from 'ai/test';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempProject } from '../../../tooling/test-support/fixtures.js';
import {
  scriptedAgentsModel,
  scriptedAnthropicFetch,
  scriptedVercelGenerate,
} from '../scripts/scripted-models.mjs';

type Project = Awaited<ReturnType<typeof tempProject>>;
const EXAMPLES = ['openai-responses', 'openai-agents', 'anthropic-tool-runner', 'vercel-ai', 'langchain'];
const read = (path: string) => readFile(new URL(path, import.meta.url), 'utf8');
const example = (name: string) => import(`../examples/${name}.mjs`);
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/** The README snippet of an example: its package imports, a blank line, the marked region dedented. */
function snippetOf(source: string): string {
  const imports = source.split('\n').filter((l) => l.startsWith('import ') && !l.includes("'node:"));
  const region = /\/\/ readme:start\n([\s\S]*?)\n\s*\/\/ readme:end/.exec(source)![1]!.split('\n');
  const indent = Math.min(...region.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return `${imports.join('\n')}\n\n${region.map((l) => l.slice(indent)).join('\n')}`;
}

describe('the README host sections', () => {
  it.each(EXAMPLES)('show examples/%s.mjs as it is', async (name) => {
    const readme = await read('../../../README.md');
    expect(readme).toContain(`\`\`\`js\n${snippetOf(await read(`../examples/${name}.mjs`))}\n\`\`\``);
  });

  it.each(['mcp.json', 'codex-config.toml'])(
    'show the MCP config apps/mcp/examples/%s as it is',
    async (file) => {
      const readme = await read('../../../README.md');
      expect(readme).toContain((await read(`../../mcp/examples/${file}`)).trimEnd());
    },
  );
});

describe('the examples run', () => {
  let project: Project;
  beforeEach(async () => {
    project = await tempProject({ 'a.txt': 'one\n' });
  });
  afterEach(async () => {
    await project.remove();
  });
  const NOTES = { type: 'create_file' as const, path: 'NOTES.md', diff: '+Notes.' };

  it('openai-responses.mjs answers apply_patch_calls until the model is done', async () => {
    const bodies: { input: unknown }[] = [];
    const fetch = async (_url: unknown, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)));
      const output =
        bodies.length === 1
          ? [
              {
                type: 'apply_patch_call',
                id: 'apc_1',
                call_id: 'call_1',
                status: 'completed',
                operation: NOTES,
              },
            ]
          : [
              {
                type: 'message',
                id: 'msg_1',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: 'done', annotations: [] }],
              },
            ];
      return json({ id: `resp_${bodies.length}`, object: 'response', status: 'completed', output });
    };
    const client = new OpenAI({ apiKey: 'test', fetch: fetch as typeof globalThis.fetch, maxRetries: 0 });
    const { main } = await example('openai-responses');
    expect(await main({ client, root: project.root })).toBe('done');
    expect(bodies[1]!.input).toMatchObject([
      { type: 'apply_patch_call_output', call_id: 'call_1', status: 'completed' },
    ]);
    expect(await project.read('NOTES.md')).toBe('Notes.\n');
  });

  it('openai-agents.mjs runs the agent with the editor', async () => {
    process.env.OPENAI_AGENTS_DISABLE_TRACING = '1';
    const model = scriptedAgentsModel(Usage, NOTES);
    const { main } = await example('openai-agents');
    expect(await main({ model, root: project.root })).toBe('done');
    expect(await project.read('NOTES.md')).toBe('Notes.\n');
  });

  it('anthropic-tool-runner.mjs lets the tool runner drive the text editor', async () => {
    const fetch = scriptedAnthropicFetch({ command: 'create', path: 'NOTES.md', file_text: 'Notes.\n' });
    const client = new Anthropic({ apiKey: 'test', fetch: fetch as typeof globalThis.fetch, maxRetries: 0 });
    const { main } = await example('anthropic-tool-runner');
    expect(await main({ client, root: project.root })).toBe('done');
    expect(await project.read('NOTES.md')).toBe('Notes.\n');
  });

  it('vercel-ai.mjs shows the diff of an `ask` path, and writes it once approved', async () => {
    await project.write(
      '.patchsmith.json',
      JSON.stringify({ permissions: [{ match: 'NOTES.md', action: 'ask' }] }),
    );
    const model = new MockLanguageModelV3({
      doGenerate: scriptedVercelGenerate('*** Begin Patch\n*** Add File: NOTES.md\n+Notes.\n*** End Patch'),
    });
    const shown: string[] = [];
    const approve = (plan: { files: { diff: string }[] }) => {
      shown.push(...plan.files.map((f) => f.diff));
      return true;
    };
    const { main } = await example('vercel-ai');
    expect(await main({ model, root: project.root, approve })).toBe('done');
    expect(shown.join('')).toContain('+Notes.');
    expect(await project.read('NOTES.md')).toBe('Notes.\n');
  });

  it('langchain.mjs runs the tool loop with a bound chat model', async () => {
    // LangChain's fake models: one that calls the tool, then one that answers.
    const call = {
      id: 'call_1',
      name: 'edit',
      type: 'tool_call' as const,
      args: { edits: [{ command: 'create', path: 'NOTES.md', file_text: 'Notes.\n' }] },
    };
    const model = {
      bindTools(tools: StructuredToolInterface[]) {
        const calling = new FakeStreamingChatModel({
          chunks: [new AIMessageChunk({ content: '', tool_calls: [call] })],
        }).bindTools(tools);
        const answering = new FakeListChatModel({ responses: ['done'] });
        let turn = 0;
        return {
          invoke: (messages: unknown) => (turn++ === 0 ? calling : answering).invoke(messages as never),
        };
      },
    };
    const { main } = await example('langchain');
    expect(await main({ model, root: project.root })).toBe('done');
    expect(await project.read('NOTES.md')).toBe('Notes.\n');
  });
});

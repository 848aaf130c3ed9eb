import {
  type AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessage,
  type ToolMessage,
} from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempProject } from '../../../tooling/test-support/fixtures.js';
import { createLangChainTools } from './langchain.js';

type Project = Awaited<ReturnType<typeof tempProject>>;

/** LangChain's fake tool-calling model, answering with these tool calls. */
function modelCalling(calls: { name: string; args: Record<string, unknown> }[]) {
  const message = new AIMessageChunk({
    content: '',
    tool_calls: calls.map((call, i) => ({ ...call, id: `call_${i}`, type: 'tool_call' as const })),
  });
  return new FakeStreamingChatModel({ chunks: [message] });
}

/**
 * One turn of the tool loop as LangChain documents it: the model, bound to the tools, answers with
 * tool calls; each call is invoked on its tool, which answers a ToolMessage for the next turn.
 */
async function turn(project: Project, calls: Parameters<typeof modelCalling>[0]) {
  const tools = createLangChainTools({ root: project.root });
  const model = modelCalling(calls).bindTools(tools);
  const messages: BaseMessage[] = [new HumanMessage('Edit a.ts')];
  const reply = (await model.invoke(messages)) as AIMessage;
  messages.push(reply);
  const byName = new Map<string, StructuredToolInterface>(tools.map((t) => [t.name, t]));
  for (const call of reply.tool_calls ?? []) {
    const tool = byName.get(call.name)!;
    messages.push((await tool.invoke(call)) as ToolMessage);
  }
  return { model, results: messages.slice(2) as ToolMessage[] };
}

describe('LangChain tools, bound to a fake tool-calling chat model', () => {
  let project: Project;
  beforeEach(async () => {
    project = await tempProject({ 'a.ts': 'const a = 1;\nconst b = 1;\n' });
  });
  afterEach(async () => {
    await project.remove();
  });

  it('binds apply_patch, edit and undo with their JSON Schemas', () => {
    const tools = createLangChainTools({ root: project.root });
    const bound = modelCalling([]).bindTools(tools) as unknown as {
      config: { tools: { type: string; function: { name: string; parameters: { type: string } } }[] };
    };
    expect(bound.config.tools.map((t) => t.function.name)).toEqual(['apply_patch', 'edit', 'undo']);
    for (const tool of bound.config.tools) expect(tool.function.parameters.type).toBe('object');
  });

  it('applies a patch and an edit from the model, answering ToolMessages with the report as artifact', async () => {
    const { results } = await turn(project, [
      {
        name: 'apply_patch',
        args: {
          patch: '*** Begin Patch\n*** Update File: a.ts\n@@\n-const b = 1;\n+const b = 2;\n*** End Patch',
          format: null,
        },
      },
      {
        name: 'edit',
        args: {
          edits: [
            {
              command: 'str_replace',
              path: 'a.ts',
              old_str: 'const a = 1;',
              new_str: 'const a = 3;',
              replace_all: null,
            },
          ],
        },
      },
    ]);
    expect(results.map((m) => m.tool_call_id)).toEqual(['call_0', 'call_1']);
    expect(results[0]!.content).toBe('Patch applied.\n[M] a.ts (+1 -1)\n');
    expect(results[1]!.artifact).toMatchObject({ ok: true, files: [{ path: 'a.ts' }] });
    expect(await project.read('a.ts')).toBe('const a = 3;\nconst b = 2;\n');

    const undone = await turn(project, [{ name: 'undo', args: { id: null, force: null } }]);
    expect(String(undone.results[0]!.content)).toMatch(/^Undone \S+;/);
    // The latest edit (the str_replace) is undone; the patch before it stays.
    expect(await project.read('a.ts')).toBe('const a = 1;\nconst b = 2;\n');
  });

  it('answers a rejection as the text the model reads, writing nothing', async () => {
    const { results } = await turn(project, [
      {
        name: 'apply_patch',
        args: {
          patch: '*** Begin Patch\n*** Update File: a.ts\n@@\n-const c = 1;\n+const c = 2;\n*** End Patch',
          format: null,
        },
      },
    ]);
    expect(String(results[0]!.content)).toContain('NO_MATCH');
    expect(results[0]!.artifact).toMatchObject({ ok: false });
    expect(await project.read('a.ts')).toBe('const a = 1;\nconst b = 1;\n');
  });

  it('passes the run config signal on: aborted while the gate asks, nothing is written', async () => {
    const controller = new AbortController();
    // The host gives up while its gate is asking; the tool must stop before the first write.
    const tools = createLangChainTools({
      root: project.root,
      ask: () => {
        controller.abort();
        return 'yes';
      },
    });
    const [applyPatch] = tools;
    const call = {
      id: 'call_0',
      name: 'apply_patch',
      type: 'tool_call' as const,
      args: { patch: '*** Begin Patch\n*** Add File: c.ts\n+c\n*** End Patch', format: null },
    };
    const answer = await applyPatch!.invoke(call, { signal: controller.signal }).catch((e: unknown) => e);
    // LangChain rejects an aborted run itself (newer releases) or hands the tool's ABORTED back.
    if (!(answer instanceof Error)) expect(String((answer as ToolMessage).content)).toContain('ABORTED');
    // Calls run one at a time: once the next one answers, the aborted one has finished.
    await applyPatch!.invoke({ ...call, id: 'call_1', args: { patch: '', format: null } }).catch(() => {});
    await expect(project.read('c.ts')).rejects.toThrow();
  });
});

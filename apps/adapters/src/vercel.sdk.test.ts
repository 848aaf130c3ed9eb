import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempProject } from '../../../tooling/test-support/fixtures.js';
import { createVercelTools } from './vercel.js';

type Project = Awaited<ReturnType<typeof tempProject>>;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A scripted model: the first step makes the given tool calls, the second answers "done". */
function scriptedModel(toolName: string, input: unknown, more: [string, unknown][] = []) {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      step++;
      if (step === 1) {
        return {
          content: [[toolName, input] as const, ...more].map(([name, args], i) => ({
            type: 'tool-call' as const,
            toolCallId: `call_${i}`,
            toolName: name,
            input: JSON.stringify(args),
          })),
          finishReason: { unified: 'tool-calls', raw: 'tool_use' },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
  });
}

describe('Vercel AI SDK tools, called by generateText', () => {
  let project: Project;
  beforeEach(async () => {
    project = await tempProject({ 'a.ts': 'const a = 1;\nconst b = 1;\n' });
  });
  afterEach(async () => {
    await project.remove();
  });

  async function call(toolName: string, input: unknown) {
    const model = scriptedModel(toolName, input);
    const result = await generateText({
      model,
      tools: createVercelTools({ root: project.root }),
      prompt: 'edit a.ts',
      stopWhen: stepCountIs(3),
    });
    const toolResult = result.steps[0]!.toolResults[0]!;
    // What the model saw on its second step: the tool's text, as the SDK sends it.
    const sentBack = JSON.stringify(model.doGenerateCalls[1]!.prompt);
    return { result, output: toolResult.output as string, sentBack };
  }

  it('offers apply_patch, edit and undo with JSON Schemas from zod', async () => {
    const model = scriptedModel('apply_patch', { patch: '' });
    await generateText({
      model,
      tools: createVercelTools({ root: project.root }),
      prompt: 'x',
      stopWhen: stepCountIs(1),
    });
    const tools = model.doGenerateCalls[0]!.tools as { name: string; inputSchema: { type: string } }[];
    expect(tools.map((t) => t.name)).toEqual(['apply_patch', 'edit', 'undo']);
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
  });

  it('applies a patch, and undoes it', async () => {
    const { result, output, sentBack } = await call('apply_patch', {
      patch: '*** Begin Patch\n*** Update File: a.ts\n@@\n-const b = 1;\n+const b = 2;\n*** End Patch',
      format: null,
    });
    expect(result.text).toBe('done');
    expect(output).toBe('Patch applied.\n[M] a.ts (+1 -1)\n');
    expect(sentBack).toContain('Patch applied.');
    expect(await project.read('a.ts')).toBe('const a = 1;\nconst b = 2;\n');

    const undone = await call('undo', { id: null, force: null });
    expect(undone.output).toMatch(/^Undone \S+;/);
    expect(await project.read('a.ts')).toBe('const a = 1;\nconst b = 1;\n');
  });

  it('returns a rejection as text the model reads, writing nothing', async () => {
    const { output } = await call('apply_patch', {
      patch: '*** Begin Patch\n*** Update File: a.ts\n@@\n-const c = 1;\n+const c = 2;\n*** End Patch',
      format: null,
    });
    expect(output).toContain('The patch was rejected and nothing was written.');
    expect(output).toContain('NO_MATCH');
    expect(await project.read('a.ts')).toBe('const a = 1;\nconst b = 1;\n');
  });

  it('runs the calls of one step one after another, so edits of one file do not race', async () => {
    const edit = (from: string, to: string) => ({
      edits: [{ command: 'str_replace', path: 'a.ts', old_str: from, new_str: to, replace_all: null }],
    });
    const model = scriptedModel('edit', edit('const a = 1;', 'const a = 5;'), [
      ['edit', edit('const b = 1;', 'const b = 6;')],
      ['apply_patch', { patch: '*** Begin Patch\n*** Add File: c.ts\n+c\n*** End Patch', format: null }],
    ]);
    const result = await generateText({
      model,
      tools: createVercelTools({ root: project.root }),
      prompt: 'edit a.ts',
      stopWhen: stepCountIs(3),
    });
    expect(result.steps[0]!.toolResults.map((r) => (r.output as string).split('\n')[0])).toEqual([
      'Patch applied.',
      'Patch applied.',
      'Patch applied.',
    ]);
    expect(await project.read('a.ts')).toBe('const a = 5;\nconst b = 6;\n');
  });

  it('applies str_replace edits', async () => {
    const { output } = await call('edit', {
      edits: [
        {
          command: 'str_replace',
          path: 'a.ts',
          old_str: 'const a = 1;',
          new_str: 'const a = 3;',
          replace_all: null,
        },
      ],
    });
    expect(output).toContain('Patch applied.');
    expect(await project.read('a.ts')).toBe('const a = 3;\nconst b = 1;\n');
  });

  it('passes the abortSignal of generateText on: aborted before the call, nothing is written', async () => {
    const controller = new AbortController();
    const model = scriptedModel('apply_patch', {
      patch: '*** Begin Patch\n*** Add File: c.ts\n+c\n*** End Patch',
      format: null,
    });
    // The model's first step answers, then the host gives up before the tool runs.
    const doGenerate = model.doGenerate.bind(model);
    model.doGenerate = async (options) => {
      const answer = await doGenerate(options);
      controller.abort();
      return answer;
    };
    await generateText({
      model,
      tools: createVercelTools({ root: project.root }),
      prompt: 'x',
      abortSignal: controller.signal,
      stopWhen: stepCountIs(2),
    }).catch(() => {});
    await expect(project.read('c.ts')).rejects.toThrow();
  });
});

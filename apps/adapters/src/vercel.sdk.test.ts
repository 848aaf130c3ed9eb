import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempProject } from '../../../tooling/test-support/fixtures.js';
import { createVercelTools, pendingPlan } from './vercel.js';

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

describe('needsApproval: the permission gate as the AI SDK approval step', () => {
  let project: Project;
  beforeEach(async () => {
    project = await tempProject({
      'a.ts': 'const a = 1;\n',
      'src/b.ts': 'const b = 1;\n',
      'secrets/key.txt': 'key\n',
      '.patchsmith.json': JSON.stringify({
        permissions: [
          { match: 'src/**', action: 'ask' },
          { match: 'secrets/**', action: 'deny' },
        ],
      }),
    });
  });
  afterEach(async () => {
    await project.remove();
  });

  const patchOf = (path: string, from: string, to: string) => ({
    patch: `*** Begin Patch\n*** Update File: ${path}\n@@\n-${from}\n+${to}\n*** End Patch`,
    format: null,
  });

  /** The first round: the model asks for the edit; the step stops on its approval request. */
  async function request(input: unknown) {
    const model = scriptedModel('apply_patch', input);
    const tools = createVercelTools({ root: project.root });
    const first = await generateText({ model, tools, prompt: 'edit', stopWhen: stepCountIs(3) });
    const approvals = first.content.filter((part) => part.type === 'tool-approval-request');
    return { model, tools, first, approvals };
  }

  /** The second round: the person's answer goes back, as the SDK documents it. */
  async function answer(round: Awaited<ReturnType<typeof request>>, approved: boolean) {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'edit' },
      ...round.first.response.messages,
      {
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: round.approvals[0]!.approvalId, approved }],
      },
    ];
    return generateText({ model: round.model, tools: round.tools, messages, stopWhen: stepCountIs(3) });
  }

  /** The approved call's result, as the model was sent it on the step after the approval. */
  function approvedOutput(round: Awaited<ReturnType<typeof request>>): string {
    const prompt = round.model.doGenerateCalls.at(-1)!.prompt;
    const results = prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
    const result = results.find((part) => part.type === 'tool-result')!;
    return (result.output as { value: string }).value;
  }

  it('asks for an edit of an `ask` path, shows its diff, and writes it once approved', async () => {
    const round = await request(patchOf('src/b.ts', 'const b = 1;', 'const b = 2;'));
    expect(round.approvals).toHaveLength(1);
    expect(await project.read('src/b.ts')).toBe('const b = 1;\n');
    const plan = pendingPlan(round.tools, round.approvals[0]!.toolCall.toolCallId)!;
    expect(plan.files).toMatchObject([{ path: 'src/b.ts', op: 'update', additions: 1, deletions: 1 }]);
    expect(plan.files[0]!.diff).toContain('-const b = 1;\n+const b = 2;');

    const second = await answer(round, true);
    expect(second.text).toBe('done');
    expect(approvedOutput(round)).toBe('Patch applied.\n[M] src/b.ts (+1 -1)\n');
    expect(await project.read('src/b.ts')).toBe('const b = 2;\n');
  });

  it('writes nothing when the person says no', async () => {
    const round = await request(patchOf('src/b.ts', 'const b = 1;', 'const b = 2;'));
    await answer(round, false);
    expect(await project.read('src/b.ts')).toBe('const b = 1;\n');
  });

  it('never lets a refused plan stand for a later call that reuses its call id', async () => {
    const round = await request(patchOf('src/b.ts', 'const b = 1;', 'const b = 2;'));
    await answer(round, false);
    // The next turn's model numbers its calls from call_0 again, now for an allowed path.
    const model = scriptedModel('apply_patch', patchOf('a.ts', 'const a = 1;', 'const a = 2;'));
    await generateText({ model, tools: round.tools, prompt: 'edit', stopWhen: stepCountIs(3) });
    expect(await project.read('a.ts')).toBe('const a = 2;\n');
    expect(await project.read('src/b.ts')).toBe('const b = 1;\n');
  });

  it('writes exactly what was shown: a file changed since the approval screen is STALE', async () => {
    const round = await request(patchOf('src/b.ts', 'const b = 1;', 'const b = 2;'));
    await project.write('src/b.ts', 'const b = 1;\n// changed by a person\n');
    await answer(round, true);
    expect(approvedOutput(round)).toContain('STALE');
    expect(await project.read('src/b.ts')).toBe('const b = 1;\n// changed by a person\n');
  });

  it('asks nothing for an allowed path, and refuses a denied one without asking', async () => {
    const allowed = await request(patchOf('a.ts', 'const a = 1;', 'const a = 2;'));
    expect(allowed.approvals).toEqual([]);
    expect(await project.read('a.ts')).toBe('const a = 2;\n');

    const denied = await request(patchOf('secrets/key.txt', 'key', 'stolen'));
    expect(denied.approvals).toEqual([]);
    expect(denied.first.steps[0]!.toolResults[0]!.output).toContain('DENIED');
    expect(await project.read('secrets/key.txt')).toBe('key\n');
  });
});

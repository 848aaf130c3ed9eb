import {
  Agent,
  type AgentInputItem,
  type ApplyPatchOperation,
  applyPatchTool,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  Usage,
} from '@openai/agents';
import type { ResponseApplyPatchToolCall } from 'openai/resources/responses/responses';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempProject } from '../../../tooling/test-support/fixtures.js';
import { operationToPatch } from './codex-operation.js';
import { createOpenAIEditor } from './openai-editor.js';
import { handleApplyPatchCall } from './openai-responses.js';

type Project = Awaited<ReturnType<typeof tempProject>>;

/**
 * A model that plays a script: the first turn calls apply_patch with the given operations, the
 * second reads the tool outputs it was sent back and says so.
 */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  constructor(private readonly operations: ApplyPatchOperation[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.requests.length;
    const output =
      turn === 1
        ? this.operations.map((operation, i) => ({
            type: 'apply_patch_call' as const,
            callId: `call_${i}`,
            status: 'completed' as const,
            operation,
          }))
        : [
            {
              type: 'message' as const,
              role: 'assistant' as const,
              status: 'completed' as const,
              content: [{ type: 'output_text' as const, text: 'done' }],
            },
          ];
    return { usage: new Usage(), output, responseId: `resp_${turn}` };
  }

  // biome-ignore lint/correctness/useYield: the script never streams
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not scripted');
  }
}

/** The apply_patch_call_output items the runner sent back to the model on its second turn. */
function toolOutputs(model: ScriptedModel): { callId: string; status: string; output?: string }[] {
  const input = model.requests[1]?.input as AgentInputItem[];
  return input.filter((i) => i.type === 'apply_patch_call_output') as never;
}

describe('operationToPatch', () => {
  it.each([
    [{ type: 'create_file', path: 'a.txt', diff: '+x\n+y' }, '*** Add File: a.txt\n+x\n+y\n'],
    [{ type: 'update_file', path: 'a.txt', diff: '@@\n-x\n+z\n' }, '*** Update File: a.txt\n@@\n-x\n+z\n'],
    [{ type: 'update_file', path: 'a', diff: '', moveTo: 'b' }, '*** Update File: a\n*** Move to: b\n'],
    [{ type: 'delete_file', path: 'a.txt' }, '*** Delete File: a.txt\n'],
  ] as const)('%j', (operation, section) => {
    expect(operationToPatch(operation)).toEqual({
      ok: true,
      patch: `*** Begin Patch\n${section}*** End Patch\n`,
    });
  });

  it('refuses a path that would start another patch section', () => {
    const result = operationToPatch({ type: 'delete_file', path: 'a.txt\n*** Delete File: b.txt' });
    expect(result.ok).toBe(false);
  });
});

describe('the Agents SDK editor, run by a real Runner', () => {
  let project: Project;
  beforeEach(async () => {
    project = await tempProject({
      'app.py': 'def greet():\n    return "hi"\n\n\nprint(greet())\n',
      'old.txt': 'bye\n',
    });
  });
  afterEach(async () => {
    await project.remove();
  });

  async function runScript(operations: ApplyPatchOperation[]) {
    const model = new ScriptedModel(operations);
    const agent = new Agent({
      name: 'editor',
      instructions: 'Edit files.',
      model,
      tools: [applyPatchTool({ editor: createOpenAIEditor({ root: project.root }) })],
    });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'Say hello instead of hi.');
    return { result, outputs: toolOutputs(model) };
  }

  it('carries out create, update (with drifted context) and delete operations', async () => {
    const { result, outputs } = await runScript([
      // The model's copy lost the indentation: pass 3 still finds it.
      { type: 'update_file', path: 'app.py', diff: '@@ def greet():\n-return "hi"\n+return "hello"\n' },
      { type: 'create_file', path: 'docs/readme.md', diff: '+# Hello\n' },
      { type: 'delete_file', path: 'old.txt' },
    ]);
    expect(result.finalOutput).toBe('done');
    expect(outputs.map((o) => o.status)).toEqual(['completed', 'completed', 'completed']);
    expect(outputs[0]!.output).toContain('[M] app.py (+1 -1)');
    expect(await project.read('app.py')).toBe('def greet():\n    return "hello"\n\n\nprint(greet())\n');
    expect(await project.read('docs/readme.md')).toBe('# Hello\n');
    await expect(project.read('old.txt')).rejects.toThrow();
  });

  it('sends a failed output with the nearest region when the context does not match', async () => {
    const { outputs } = await runScript([
      { type: 'update_file', path: 'app.py', diff: '@@\n-def farewell():\n+def goodbye():\n' },
    ]);
    expect(outputs).toHaveLength(1);
    expect(outputs[0]!.status).toBe('failed');
    expect(outputs[0]!.output).toContain('NO_MATCH');
    expect(outputs[0]!.output).toContain('nearest region');
    expect(await project.read('app.py')).toContain('return "hi"');
  });
});

describe('handleApplyPatchCall (Responses API)', () => {
  it('answers an apply_patch_call with its apply_patch_call_output', async () => {
    const project = await tempProject({ 'a.txt': 'one\n' });
    try {
      const call: ResponseApplyPatchToolCall = {
        id: 'apc_1',
        type: 'apply_patch_call',
        call_id: 'call_1',
        status: 'completed',
        operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-one\n+two\n' },
      };
      expect(await handleApplyPatchCall(call, { root: project.root })).toEqual({
        type: 'apply_patch_call_output',
        call_id: 'call_1',
        status: 'completed',
        output: 'Patch applied.\n[M] a.txt (+1 -1)\n',
      });
      expect(await project.read('a.txt')).toBe('two\n');
      const outside = await handleApplyPatchCall(
        { call_id: 'call_2', operation: { type: 'delete_file', path: '../elsewhere.txt' } },
        { root: project.root },
      );
      expect(outside).toMatchObject({ call_id: 'call_2', status: 'failed' });
      expect(outside.output).toContain('PATH_OUTSIDE_ROOT');
    } finally {
      await project.remove();
    }
  });
});

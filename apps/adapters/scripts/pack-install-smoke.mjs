// Run inside the fresh project of pack-install-check.mjs, where the packed tarballs and the latest
// release of every SDK were installed from the registry: one call per adapter, each through its
// SDK with the SDK's own mock or fake model (no network, no key). Prints `ok <adapter>` per call;
// any failure throws (exit 1).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedAgentsModel, scriptedAnthropicFetch, scriptedVercelGenerate } from './scripted-models.mjs';

const root = await mkdtemp(join(tmpdir(), 'ps-smoke-'));
const expectFile = async (path, content, adapter) => {
  const now = await readFile(join(root, path), 'utf8').catch(() => null);
  if (now !== content)
    throw new Error(`${adapter}: ${path} is ${JSON.stringify(now)}, not ${JSON.stringify(content)}`);
  console.log(`ok ${adapter}`);
};
const addFile = (path) => `*** Begin Patch\n*** Add File: ${path}\n+${path}\n*** End Patch`;

try {
  // The main entry, no SDK.
  const { runApplyPatchOperation } = await import('@patchsmith/adapters');
  await runApplyPatchOperation({ type: 'create_file', path: 'main.txt', diff: '+main.txt' }, { root });
  await expectFile('main.txt', 'main.txt\n', 'main');

  // OpenAI Responses API.
  const { handleApplyPatchCall } = await import('@patchsmith/adapters/openai');
  const output = await handleApplyPatchCall(
    { call_id: 'c1', operation: { type: 'create_file', path: 'responses.txt', diff: '+responses.txt' } },
    { root },
  );
  if (output.status !== 'completed') throw new Error(`openai: ${output.output}`);
  await expectFile('responses.txt', 'responses.txt\n', 'openai');

  // OpenAI Agents SDK, run by a real Runner with a scripted model.
  const { Agent, applyPatchTool, Runner, Usage } = await import('@openai/agents');
  const { createOpenAIEditor } = await import('@patchsmith/adapters/openai-agents');
  const model = scriptedAgentsModel(Usage, { type: 'create_file', path: 'agents.txt', diff: '+agents.txt' });
  const agent = new Agent({
    name: 'e',
    model,
    tools: [applyPatchTool({ editor: createOpenAIEditor({ root }) })],
  });
  await new Runner({ tracingDisabled: true }).run(agent, 'edit');
  await expectFile('agents.txt', 'agents.txt\n', 'openai-agents');

  // Anthropic text editor, through the SDK's tool runner with a scripted fetch.
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const { createTextEditorRunnableTool } = await import('@patchsmith/adapters/anthropic');
  const scripted = scriptedAnthropicFetch({
    command: 'create',
    path: 'anthropic.txt',
    file_text: 'anthropic.txt\n',
  });
  const client = new Anthropic({ apiKey: 'test', fetch: scripted, maxRetries: 0 });
  await client.beta.messages.toolRunner({
    model: 'claude-sonnet-5-5',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'edit' }],
    tools: [createTextEditorRunnableTool({ root })],
  });
  await expectFile('anthropic.txt', 'anthropic.txt\n', 'anthropic');

  // Vercel AI SDK, generateText with its mock model.
  const { generateText, stepCountIs } = await import('ai');
  const { MockLanguageModelV3 } = await import('ai/test');
  const { createVercelTools } = await import('@patchsmith/adapters/vercel');
  const mock = new MockLanguageModelV3({ doGenerate: scriptedVercelGenerate(addFile('vercel.txt')) });
  await generateText({
    model: mock,
    tools: createVercelTools({ root }),
    prompt: 'edit',
    stopWhen: stepCountIs(3),
  });
  await expectFile('vercel.txt', 'vercel.txt\n', 'vercel');

  // LangChain, a fake tool-calling chat model bound to the tools.
  const { AIMessageChunk } = await import('@langchain/core/messages');
  const { FakeStreamingChatModel } = await import('@langchain/core/utils/testing');
  const { createLangChainTools } = await import('@patchsmith/adapters/langchain');
  const tools = createLangChainTools({ root });
  const call = {
    id: 'l1',
    name: 'apply_patch',
    type: 'tool_call',
    args: { patch: addFile('langchain.txt'), format: null },
  };
  const chat = new FakeStreamingChatModel({
    chunks: [new AIMessageChunk({ content: '', tool_calls: [call] })],
  }).bindTools(tools);
  const reply = await chat.invoke('edit');
  for (const toolCall of reply.tool_calls) await tools.find((t) => t.name === toolCall.name).invoke(toolCall);
  await expectFile('langchain.txt', 'langchain.txt\n', 'langchain');
} finally {
  await rm(root, { recursive: true, force: true });
}

// The scripted model turns of two checks: the examples test (src/examples.test.ts) and the
// tarball smoke run (pack-install-smoke.mjs, copied beside this file into a fresh project). Each
// model's first turn calls the tool and its next one answers 'done'. No SDK is imported here:
// each check passes its own SDK's classes, so both run the SDK they installed.

/** An @openai/agents `Model` whose first response is one `apply_patch_call` of `operation`. */
export function scriptedAgentsModel(Usage, operation) {
  let turns = 0;
  return {
    async getResponse() {
      turns++;
      const output =
        turns === 1
          ? [{ type: 'apply_patch_call', callId: 'call_1', status: 'completed', operation }]
          : [
              {
                type: 'message',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: 'done' }],
              },
            ];
      return { usage: new Usage(), output, responseId: `resp_${turns}` };
    },
    // biome-ignore lint/correctness/useYield: never streams
    async *getStreamedResponse() {
      throw new Error('not scripted');
    },
  };
}

/** A `fetch` for the Anthropic client: a `str_replace_based_edit_tool` call with `input`, then text. */
export function scriptedAnthropicFetch(input) {
  let requests = 0;
  return async () => {
    requests++;
    const content =
      requests === 1
        ? [{ type: 'tool_use', id: 'toolu_1', name: 'str_replace_based_edit_tool', input }]
        : [{ type: 'text', text: 'done' }];
    const message = {
      id: `msg_${requests}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content,
      stop_reason: requests === 1 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    return new Response(JSON.stringify(message), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

/** `doGenerate` for the AI SDK's MockLanguageModelV3: an `apply_patch` call of `patch`, then text. */
export function scriptedVercelGenerate(patch) {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  let steps = 0;
  return async () =>
    ++steps === 1
      ? {
          content: [
            {
              type: 'tool-call',
              toolCallId: 'call_1',
              toolName: 'apply_patch',
              input: JSON.stringify({ patch, format: null }),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_use' },
          usage,
          warnings: [],
        }
      : {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
}

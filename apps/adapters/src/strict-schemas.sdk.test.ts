/**
 * The tool schemas as OpenAI's Agents SDK takes them with `convertSchemasToStrict`: its own
 * converter (`mcpToFunctionTool`) keeps them strict, and the result is valid in strict mode.
 */
import { mcpToFunctionTool } from '@openai/agents';
import { strictModeProblems, toolInputJsonSchemas } from '@patchsmith/tool';
import { describe, expect, it } from 'vitest';

describe('the tool schemas in OpenAI strict mode', () => {
  it.each(Object.entries(toolInputJsonSchemas()))(
    '%s converts with convertSchemasToStrict and stays valid',
    (name, schema) => {
      const server = { name: 'patchsmith' } as never;
      const tool = mcpToFunctionTool({ name, description: name, inputSchema: schema } as never, server, true);
      expect(tool.strict).toBe(true);
      expect(strictModeProblems(tool.parameters)).toEqual([]);
    },
  );
});

import { type DynamicStructuredTool, tool } from '@langchain/core/tools';
import {
  applyPatchInputSchema,
  type EditInput,
  type EditReport,
  editToolInputSchema,
  formatForModel,
  formatUndo,
  oneAtATime,
  runEdit,
  undoInputSchema,
  undoLast,
} from '@patchsmith/tool';
import type { AdapterOptions } from './options.js';
import { editsInput, patchInput, TOOL_DESCRIPTIONS, undoOptions, withSignal } from './tool-actions.js';

/**
 * The three tools, each typed by its input schema alone: `DynamicStructuredTool` takes 4 type
 * arguments in @langchain/core 1.0 and 6 in 1.4, so the inferred type would break the older one.
 */
export type LangChainTools = [
  DynamicStructuredTool<typeof applyPatchInputSchema>,
  DynamicStructuredTool<typeof editToolInputSchema>,
  DynamicStructuredTool<typeof undoInputSchema>,
];

/**
 * LangChain tools (`@langchain/core` `tool()`): `apply_patch`, `edit` and `undo`, for
 * `model.bindTools(tools)` and any agent that runs LangChain tools. Each answers the text for the
 * model, with the JSON report as the ToolMessage's `artifact`; a rejected edit is text too (the
 * model reads why and retries). The run config's `signal` cancels a call before its first write.
 */
export function createLangChainTools(options: AdapterOptions = {}): LangChainTools {
  // An agent may run one turn's tool calls concurrently; edits must not race.
  const queue = oneAtATime();
  const edited = async (input: EditInput, signal: AbortSignal | undefined): Promise<[string, EditReport]> => {
    const report = await runEdit(input, withSignal(options, signal));
    return [formatForModel(report), report];
  };
  const applyPatch = tool((input, config) => queue(() => edited(patchInput(input), config?.signal)), {
    name: 'apply_patch',
    description: TOOL_DESCRIPTIONS.apply_patch,
    schema: applyPatchInputSchema,
    responseFormat: 'content_and_artifact',
  });
  const edit = tool((input, config) => queue(() => edited(editsInput(input), config?.signal)), {
    name: 'edit',
    description: TOOL_DESCRIPTIONS.edit,
    schema: editToolInputSchema,
    responseFormat: 'content_and_artifact',
  });
  const undo = tool(
    (input) =>
      queue(async () => {
        const report = await undoLast(undoOptions(input, options));
        return [formatUndo(report), report];
      }),
    {
      name: 'undo',
      description: TOOL_DESCRIPTIONS.undo,
      schema: undoInputSchema,
      responseFormat: 'content_and_artifact',
    },
  );
  return [applyPatch, edit, undo];
}

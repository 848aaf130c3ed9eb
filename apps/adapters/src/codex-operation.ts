/**
 * The file operations of OpenAI's apply_patch tool (Agents SDK `Editor` and Responses API
 * `apply_patch_call` alike): a path and a V4A diff, which is the body of a Codex patch section.
 */
export type ApplyPatchOperation =
  | { type: 'create_file'; path: string; diff: string }
  | { type: 'update_file'; path: string; diff: string; moveTo?: string; move_to?: string | null }
  | { type: 'delete_file'; path: string };

export type OperationPatch = { ok: true; patch: string } | { ok: false; message: string };

// A path that could break out of its header line and smuggle in another operation.
const spansLines = (path: string) => /[\r\n]/.test(path);

function withFinalNewline(diff: string): string {
  return diff === '' || diff.endsWith('\n') ? diff : `${diff}\n`;
}

/** The one-section Codex patch that carries out an operation. */
export function operationToPatch(operation: ApplyPatchOperation): OperationPatch {
  const moveTo =
    operation.type === 'update_file' ? (operation.moveTo ?? operation.move_to ?? undefined) : undefined;
  const bad = [operation.path, moveTo].find((p) => p !== undefined && spansLines(p));
  if (bad !== undefined)
    return { ok: false, message: `invalid path (it spans lines): ${JSON.stringify(bad)}` };
  let section: string;
  switch (operation.type) {
    case 'create_file':
      section = `*** Add File: ${operation.path}\n${withFinalNewline(operation.diff)}`;
      break;
    case 'update_file':
      section =
        `*** Update File: ${operation.path}\n` +
        (moveTo !== undefined ? `*** Move to: ${moveTo}\n` : '') +
        withFinalNewline(operation.diff);
      break;
    case 'delete_file':
      section = `*** Delete File: ${operation.path}\n`;
      break;
  }
  return { ok: true, patch: `*** Begin Patch\n${section}*** End Patch\n` };
}

// What a host needs: the pipeline, undo and view, the permission gate and config, diagnostics, and
// the tool-input schemas. The policy's pieces (rule matching, decisions) live in @patchsmith/core.

// apply's synchronous disk, for a process that serves one caller at a time (the CLI, the MCP bin).
export { syncFs } from '@patchsmith/apply';
export type { EditReport } from '@patchsmith/formatter';
export { formatForModel } from '@patchsmith/formatter';
export type { ApplyPlannedOptions } from './apply-planned.js';
export { applyPlanned } from './apply-planned.js';
export type { PatchsmithConfig } from './config.js';
export { loadConfig } from './config.js';
export type { DiagnosticsHandle, StartDiagnosticsOptions } from './diagnose.js';
export { diagnoseWith, startDiagnostics } from './diagnose.js';
export type { EditPlan, PlanFile } from './edit-plan.js';
export { oneAtATime } from './one-at-a-time.js';
export type {
  AskPermission,
  PathDecision,
  PermissionAction,
  PermissionAnswer,
  PermissionGateOptions,
  PermissionPolicy,
  PermissionPrompt,
  PermissionRefusal,
  PermissionRequest,
  PermissionRule,
} from './permission.js';
export { createPermissionGate, loadPolicy } from './permission.js';
export type { EditProgress, EditStage } from './progress.js';
export type { ReadVersion, ReadVersions } from './read-versions.js';
export type { DiagnoseWrites, EditInput, PatchInputFormat, PlannedEdit, RunEditOptions } from './run-edit.js';
export { planEdit, runEdit } from './run-edit.js';
export type { ApplyPatchToolInput, EditToolInput, UndoToolInput, ViewInput } from './schemas.js';
export {
  applyPatchInputSchema,
  editToolInputSchema,
  toolEdits,
  toolInputJsonSchemas,
  undoInputSchema,
  viewInputSchema,
} from './schemas.js';
export { strictModeProblems } from './strict-mode.js';
export type { UndoOptions, UndoReport } from './undo.js';
export { formatUndo, redoLast, undoLast } from './undo.js';
export type { ViewFileOptions, ViewFileResult } from './view-file.js';
export { viewFile } from './view-file.js';

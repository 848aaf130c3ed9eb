export type { AskPermission, DiagnoseWrites, EditInput, PermissionAnswer, RunEditOptions } from './run-edit.js';
export { runEdit } from './run-edit.js';

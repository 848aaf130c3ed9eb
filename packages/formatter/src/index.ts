export type { ApplyPatchContext } from './format-apply-patch.js';
export { formatApplyPatch } from './format-apply-patch.js';
export type { HumanFormatOptions } from './format-human.js';
export { colorDiff, fileSummaryLine, formatHuman } from './format-human.js';
export { formatJson } from './format-json.js';
export { formatForModel } from './format-model.js';
export { errorDetails, errorHeading } from './describe-error.js';
export { tolerantMatchNotes } from './describe-match.js';
export type { EditReport, FileDiagnosticsReport, ReportedDiagnostic } from './report.js';

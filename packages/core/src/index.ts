export type { ConfigFs, PatchsmithConfig } from './config.js';
export { loadConfig, loadPolicy, MAX_CONFIG_BYTES, parseConfig, parsePolicy } from './config.js';
export { describeDecidedPath, describeRule } from './describe-decision.js';
export type { EditError, ErrorCode, NearestRegion, Result } from './errors.js';
export { ERROR_CODES, PatchsmithError } from './errors.js';
export { isSymlinkMode, SYMLINK_MODE } from './file-mode.js';
export { MAX_FILE_BYTES } from './file-size.js';
export type { FsFileHandle, FsStats, PatchsmithFs } from './file-system.js';
export { diskFs, isDiskFs } from './file-system.js';
export type { FormatEntries, FormatEntry } from './format-entries.js';
export { formatEntryFor } from './format-entries.js';
export { gitBlobId, isNullBlobId, MAX_BINARY_BYTES } from './git-blob.js';
export type { StateDirFs } from './git-dir.js';
export { commonDirOf, gitDirProblem } from './git-dir.js';
export { quotePath, readQuotedPath } from './git-path.js';
export { hashBytes } from './hash.js';
export type { Line, LineEnding } from './line-model.js';
export { LineModel } from './line-model.js';
export { byDepth, IO_CONCURRENCY, mapLimit, runAll } from './map-limit.js';
export type { PathRefusal, TreePath, TreeRoots } from './path-policy.js';
export {
  CONFIG_FILE,
  climbsOut,
  isInsidePath,
  isStrictlyInside,
  namesGitFolder,
  PLAIN_STATE_DIR,
  protectedPathReason,
  refusePath,
  toTreePath,
} from './path-policy.js';
export type { PermissionAction } from './permission-actions.js';
export { PERMISSION_ACTIONS } from './permission-actions.js';
export type {
  EnclosingRules,
  MatchOptions,
  PathDecision,
  PermissionPolicy,
  PermissionRule,
} from './permission-rules.js';
export { decideNames, decidePath, matchesGlob } from './permission-rules.js';
export { randomHex } from './random-hex.js';
export { sameBytes } from './same-bytes.js';
export type {
  AddFile,
  Anchor,
  BinaryHunk,
  BinaryPatch,
  Chunk,
  ChunkLine,
  ChunkLineKind,
  DeleteFile,
  EditScript,
  InsertText,
  LineHint,
  Operation,
  PatchFormat,
  ReplaceText,
  StrReplaceCommand,
  UpdateFile,
} from './script.js';
export { newLines, oldLines } from './script.js';
export { SplicedText } from './spliced-text.js';
export type { StateDirLocation } from './state-dir.js';
export { locateStateDir } from './state-dir.js';
export type { TextContent } from './text-codec.js';
export { decodeText, encodeString, encodeText, encodeUtf8, readsBack } from './text-codec.js';
export { endsWithLineBreak, textLines, withEnding } from './text-lines.js';
export { trimTrailing } from './trim-trailing.js';

export { compileStrReplace } from './compile-str-replace.js';
export { detectFormat } from './detect-format.js';
export type { EditError, ErrorCode, NearestRegion, Result } from '@patchsmith/core';
export { ERROR_CODES, PatchsmithError } from '@patchsmith/core';
export { quotePath } from './git-path.js';
export type { InputFormat } from './parse-edits.js';
export { parseEdits } from './parse-edits.js';
export { parsePatch } from './parse-patch.js';
export type { PatchStream, PatchStreamEvent } from './parse-patch-stream.js';
export { parsePatchStream } from './parse-patch-stream.js';
export { parseSearchReplace } from './parse-search-replace.js';
export { parseUnified } from './parse-unified.js';
export { printPatch } from './print-patch.js';
export { printSearchReplace } from './print-search-replace.js';
export { printUnified } from './print-unified.js';
export type {
  AddFile,
  Anchor,
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

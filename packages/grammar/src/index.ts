export type { EditError, ErrorCode, NearestRegion, Result } from './errors.js';
export { ERROR_CODES, PatchsmithError } from './errors.js';
export { parsePatch } from './parse-patch.js';
export { printPatch } from './print-patch.js';
export type {
  AddFile,
  Anchor,
  Chunk,
  ChunkLine,
  ChunkLineKind,
  DeleteFile,
  EditScript,
  LineHint,
  Operation,
  PatchFormat,
  UpdateFile,
} from './script.js';
export { newLines, oldLines } from './script.js';

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
export type { EditError, ErrorCode, NearestRegion, Result } from './errors.js';
export { ERROR_CODES, PatchsmithError } from './errors.js';

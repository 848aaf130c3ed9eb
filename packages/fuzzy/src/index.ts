export type { FileIndex, LineTable } from './file-index.js';
export { indexFile } from './file-index.js';
export type { LineIndex } from './line-index.js';
export { indexLines } from './line-index.js';
export { locateChunk } from './locate-chunk.js';
export { locateIndexed, locateText } from './locate-text.js';
export type { LineKey } from './normalize.js';
export { foldLookalikes, normalizeLine } from './normalize.js';
export type * from './types.js';

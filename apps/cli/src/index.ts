export { applyPatchMain } from './apply-patch.js';
export type { Io } from './io.js';
export { main, USAGE } from './patchsmith.js';

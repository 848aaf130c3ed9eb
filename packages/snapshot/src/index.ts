export type { StateDirFs, StateDirLocation } from './state-dir.js';
export { locateStateDir } from './state-dir.js';

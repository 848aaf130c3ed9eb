// The config file is read by the transaction too, so it lives in @patchsmith/core.
export type { PatchsmithConfig } from '@patchsmith/core';
export { CONFIG_FILE, loadConfig, parseConfig, parsePolicy } from '@patchsmith/core';

// Test support shared by the apps that start patchsmith from source in a child process (apps/mcp, apps/adapters).
// `node --import ./register-ts.mjs file.ts` runs a workspace TypeScript entry from source.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);

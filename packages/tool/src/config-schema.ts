import { z } from 'zod';
import { PERMISSION_ACTIONS } from './permission-actions.js';

const ruleSchema = z.strictObject({
  match: z.string().min(1),
  action: z.enum(PERMISSION_ACTIONS),
});

/** `.patchsmith.json`. Strict, so a misspelt key is an error rather than a silently open door. */
export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  permissions: z.array(ruleSchema).default([]),
  diagnostics: z.boolean().default(false),
});

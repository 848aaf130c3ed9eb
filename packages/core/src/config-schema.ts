import * as z from 'zod/mini';
import { PERMISSION_ACTIONS } from './permission-actions.js';

const ruleSchema = z.strictObject({
  match: z.string().check(z.minLength(1)),
  action: z.enum(PERMISSION_ACTIONS),
});

/** `.patchsmith.json`. Strict, so a misspelt key is an error rather than a silently open door. */
export const configSchema = z.strictObject({
  $schema: z.optional(z.string()),
  permissions: z._default(z.array(ruleSchema), []),
  diagnostics: z._default(z.boolean(), false),
});

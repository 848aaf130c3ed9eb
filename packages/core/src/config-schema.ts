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
  /** Glob -> formatter (see FormatEntry); used only when the host opts in to formatting. */
  format: z.optional(
    z.record(
      z.string().check(z.minLength(1)),
      z.union([
        z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
        z.enum(['prettier', 'biome']),
        z.literal(false),
      ]),
    ),
  ),
});

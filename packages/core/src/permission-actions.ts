/** What a permission rule can say about a path. Kept apart so the schema module imports nothing else. */
export const PERMISSION_ACTIONS = ['allow', 'deny', 'ask'] as const;

export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

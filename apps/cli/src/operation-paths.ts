import type { Operation } from '@patchsmith/core';

// The paths an operation names: its own, a move's or copy's destination, a traditional diff's other name.
type PathField = 'path' | 'movePath' | 'otherPath';
const PATH_FIELDS: readonly PathField[] = ['path', 'movePath', 'otherPath'];

/** Every path an operation names. */
export function namedPaths(op: Operation): string[] {
  const fields = op as Partial<Record<PathField, string>>;
  return PATH_FIELDS.map((field) => fields[field]).filter((path): path is string => path !== undefined);
}

/** Rewrites every path an operation names, in place. */
export function mapPaths(op: Operation, map: (path: string) => string): void {
  const fields = op as Partial<Record<PathField, string>>;
  for (const field of PATH_FIELDS) {
    const path = fields[field];
    if (path !== undefined) fields[field] = map(path);
  }
}

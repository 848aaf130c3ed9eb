import type { PlannedFile } from '@patchsmith/planner';

/** What a reviewer is shown of one planned file: the operation, its counts and its diff. */
export interface ReviewedFile {
  path: string;
  op: string;
  movePath?: string;
  additions: number;
  deletions: number;
  diff: string;
}

/** The reviewed fields of a planned file, in the order every report writes them. */
export function reviewedFile(f: PlannedFile): ReviewedFile {
  return {
    path: f.path,
    op: f.op,
    ...(f.movePath !== undefined ? { movePath: f.movePath } : {}),
    additions: f.additions,
    deletions: f.deletions,
    diff: f.diff,
  };
}

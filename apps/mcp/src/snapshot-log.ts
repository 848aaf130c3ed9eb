import { listSnapshots } from '@patchsmith/snapshot';

// A control character (C0, DEL, C1): a hostile manifest's message could move a terminal's cursor.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const printable = (text: string) => text.replace(CONTROL, '\uFFFD');

/** One snapshot as the `log` tool reports it. */
export interface LoggedSnapshot {
  id: string;
  time: string | null;
  message: string | null;
  paths: string[];
  undone: boolean;
  invalid: string | null;
}

/** The root's snapshots, newest first (at most `limit`), as text for the model and as data. */
export async function snapshotLog(
  root: string,
  limit: number | null,
): Promise<{ text: string; snapshots: LoggedSnapshot[] }> {
  const all = await listSnapshots({ root });
  const snapshots = all.slice(0, limit ?? all.length).map(
    (s): LoggedSnapshot => ({
      id: s.id,
      time: s.invalid === null ? s.time : null,
      message: s.invalid === null ? s.message : null,
      paths: s.invalid === null ? s.paths : [],
      undone: s.undone !== null,
      invalid: s.invalid,
    }),
  );
  const lines = snapshots.map((s) =>
    s.invalid !== null
      ? `${printable(s.id)}  INVALID  ${printable(s.invalid)}`
      : `${s.id}  ${s.time}  ${printable(s.paths.join(', '))}${s.undone ? '  (undone)' : ''}`,
  );
  if (snapshots.length < all.length) lines.push(`... and ${all.length - snapshots.length} older`);
  const text = lines.length === 0 ? 'No snapshots.\n' : `${lines.join('\n')}\n`;
  return { text, snapshots };
}

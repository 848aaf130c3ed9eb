import { type EditError, hashBytes } from '@patchsmith/core';
import { describeChange } from './diff.js';
import { type Notebook, readNotebook } from './notebook-cells.js';
import { cellsOfView, cellView, viewRoundTrips } from './notebook-view.js';
import { printNotebook } from './print-notebook.js';
import { originOf, restateWrite } from './restate-write.js';
import type { FileState, Plan, PlanResult } from './types.js';

/** A path the cell view applies to. */
export const isNotebookPath = (path: string) => /\.ipynb$/i.test(path);

type ReadFile = Extract<FileState, { kind: 'file' }>;

/** A notebook read, and the cell view it is planned as. */
interface Viewed {
  notebook: Notebook;
  read: ReadFile;
}

const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The notebook a file holds, when it is one whose cell view reads back as its cells; else null (edited as text). */
function notebookOf(state: ReadFile): Notebook | null {
  let text: string;
  try {
    text = strictUtf8.decode(state.bytes);
  } catch {
    return null;
  }
  // A BOM is not JSON; such a file is edited as text.
  const notebook = text.startsWith('\uFEFF') ? null : readNotebook(text);
  return notebook !== null && viewRoundTrips(notebook, cellView(notebook)) ? notebook : null;
}

/** The cell view of a notebook file, as an edit sees it; null when the file is edited as text. */
export function notebookView(bytes: Uint8Array, mode = 0o100644): string | null {
  const notebook = notebookOf({ kind: 'file', bytes, mode });
  return notebook === null ? null : cellView(notebook);
}

/** What the file read was, for a write the plan made from its cell view. */
const realBefore = (read: ReadFile) => ({
  hash: read.hash ?? hashBytes(read.bytes),
  mode: read.mode,
  bytes: read.bytes,
});

/**
 * Plans an edit with each notebook (`.ipynb`) shown to it as its cell view: Update chunks and
 * str_replace edits match against the cells' sources, not the JSON. What the edit makes of a
 * view is printed back into the notebook's JSON in its own formatting (`printNotebook`), and the
 * plan's before states, diffs and writes are those of the real files. `skip`: notebooks edited
 * as text all the same. A notebook that is not one this reads (another shape, a cell type it
 * does not know, a source holding a marker line) is edited as text, and so is an edit that
 * does not apply to the cell view but does to the JSON (a `git diff` of the notebook).
 */
export function planNotebooks(
  files: ReadonlyMap<string, FileState>,
  plan: (files: ReadonlyMap<string, FileState>) => PlanResult,
  skip: ReadonlySet<string> = new Set(),
): PlanResult {
  const viewed = new Map<string, Viewed>();
  const shown = new Map(files);
  for (const [path, state] of files) {
    if (state.kind !== 'file' || !isNotebookPath(path) || skip.has(path)) continue;
    const notebook = notebookOf(state);
    if (notebook === null) continue;
    viewed.set(path, { notebook, read: state });
    const bytes = encoder.encode(cellView(notebook));
    shown.set(path, { ...state, bytes, hash: hashBytes(bytes) });
  }
  if (viewed.size === 0) return plan(files);
  const planned = plan(shown);
  if (!planned.ok) {
    // An edit written against the JSON (a `git diff` of the notebook) applies as text; when it
    // does not either, the errors are the cell view's, the view edits are meant for.
    const asText = plan(files);
    return asText.ok ? asText : planned;
  }
  let result: Plan = {
    // A deleted notebook's diff is of its JSON, as git shows it.
    files: planned.plan.files.map((f) => {
      const v = f.op === 'delete' ? viewed.get(f.path) : undefined;
      return v === undefined ? f : { ...f, ...describeChange(f.path, f.path, v.read.bytes, null) };
    }),
    writes: planned.plan.writes.map((w) => {
      const v = viewed.get(w.path);
      return v === undefined || w.before === null ? w : { ...w, before: realBefore(v.read) };
    }),
  };
  const errors: EditError[] = [];
  for (const write of planned.plan.writes) {
    if (write.after === null) continue;
    const origin = originOf(result, write.path);
    const source = viewed.get(origin.path);
    if (source === undefined || origin.added) continue;
    const cells = cellsOfView(
      new TextDecoder().decode(write.after.bytes),
      source.notebook.cells.length,
      write.path,
    );
    if (!cells.ok) {
      errors.push(...cells.errors);
      continue;
    }
    result = restateWrite(result, write.path, encoder.encode(printNotebook(source.notebook, cells.cells)));
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, plan: result };
}

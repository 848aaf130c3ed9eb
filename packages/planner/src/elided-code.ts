import type { EditError, Operation } from '@patchsmith/core';
import { type DiffStep, diffLines } from '@patchsmith/fuzzy';
import { isPlaceholderLine } from './placeholder.js';
import type { PlanState } from './state.js';

/** One line of an edit's old or new side, in order; `line` is its line in the input when known. */
interface Step {
  step: DiffStep;
  text: string;
  line?: number;
}

/** Where a placeholder was found: the step, and how many lines its change deletes. */
interface Found {
  step: Step;
  /** 1-based position among the new side's lines. */
  newIndex: number;
  deleted: number;
  firstDeleted: string;
}

const PREVIEW_CHARS = 60;

/**
 * ELIDED_CODE: the edit writes a placeholder (`// ... existing code ...`, a bare `...`) that its
 * old lines did not hold, in a change that deletes lines, which the placeholder stands for. Each
 * unit is checked on its own: a patch chunk (its own -/+ runs), a SEARCH/REPLACE block or
 * str_replace (search against replace, diffed), a whole file written over an existing one (old
 * file against new). `oldFile`: the lines of the file an `add` overwrites, or null. Null: no guard trips.
 */
export function elidedCode(op: Operation, path: string, oldFile: readonly string[] | null): EditError | null {
  switch (op.kind) {
    case 'update':
      for (const chunk of op.chunks) {
        const steps = chunk.lines.map((l) => ({ step: STEP[l.kind], text: l.text, line: l.line }));
        const found = firstPlaceholder(steps, path, 'unit');
        if (found !== null) return elided(path, found, found.step.line ?? chunk.line, '');
      }
      return null;
    case 'replace': {
      if (op.search === '') return null;
      const found = firstPlaceholder(diffed(op.search.split('\n'), op.replace.split('\n')), path, 'unit');
      return found === null
        ? null
        : elided(path, found, op.line, ` (line ${found.newIndex} of its replacement)`);
    }
    case 'add': {
      if (oldFile === null) return null;
      const lines = op.content === undefined ? op.lines : op.content.split('\n');
      const found = firstPlaceholder(diffed(oldFile, lines), path, 'run');
      return found === null
        ? null
        : elided(path, found, op.line, ` (line ${found.newIndex} of the new file)`);
    }
    default:
      return null;
  }
}

/** `elidedCode` as planEdits runs it: after planning the operation, before its changes enter `state`. */
export function elisionError(op: Operation, path: string, state: PlanState): EditError | null {
  if (op.kind !== 'add') return elidedCode(op, path, null);
  const slot = state.get(path);
  const text = slot.kind === 'file' ? state.decode(slot.bytes) : null;
  return elidedCode(
    op,
    path,
    text === null ? null : Array.from({ length: text.lines.length }, (_, i) => text.lines.at(i)!),
  );
}

const STEP = { context: '=', remove: '-', add: '+' } as const;

/** Both sides as the steps of their line diff. */
function diffed(before: readonly string[], after: readonly string[]): Step[] {
  const steps: Step[] = [];
  let a = 0;
  let b = 0;
  for (const step of diffLines(before, after)) {
    steps.push({ step, text: step === '-' ? before[a]! : after[b]! });
    if (step !== '+') a++;
    if (step !== '-') b++;
  }
  return steps;
}

/**
 * The first added placeholder that the old side did not hold, where lines with text are deleted:
 * anywhere in the `unit` (a chunk or a SEARCH/REPLACE block is one local change, and the model
 * may put its placeholder beside what it dropped), or in the same `run` of changed lines between
 * kept ones (a whole file, where the diff lines the placeholder up with what it replaced).
 * Null when there is none.
 */
function firstPlaceholder(steps: readonly Step[], path: string, scope: 'unit' | 'run'): Found | null {
  const old = new Set(steps.filter((s) => s.step !== '+').map((s) => s.text.trim()));
  let previous = '';
  let newIndex = 0;
  let run: { deleted: number; firstDeleted: string; candidates: Array<{ step: Step; newIndex: number }> } = {
    deleted: 0,
    firstDeleted: '',
    candidates: [],
  };
  for (const step of steps) {
    if (step.step === '=' && scope === 'run') {
      const found = closeRun();
      if (found !== null) return found;
    } else if (step.step === '-') {
      if (step.text.trim() !== '') {
        if (run.deleted === 0) run.firstDeleted = step.text.trim();
        run.deleted++;
      }
      continue;
    } else if (
      step.step === '+' &&
      !old.has(step.text.trim()) &&
      isPlaceholderLine(step.text, { path, previous })
    ) {
      run.candidates.push({ step, newIndex: newIndex + 1 });
    }
    newIndex++;
    previous = step.text;
  }
  return closeRun();

  function closeRun(): Found | null {
    const { deleted, firstDeleted, candidates } = run;
    run = { deleted: 0, firstDeleted: '', candidates: [] };
    const candidate = deleted > 0 ? candidates[0] : undefined;
    return candidate === undefined ? null : { ...candidate, deleted, firstDeleted };
  }
}

function preview(text: string): string {
  return JSON.stringify(text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text);
}

function elided(path: string, found: Found, line: number, where: string): EditError {
  const lines = found.deleted === 1 ? 'line' : 'lines';
  return {
    code: 'ELIDED_CODE',
    message:
      `line ${line}${where}: ${preview(found.step.text.trim())} stands for code the edit does not repeat, and the ` +
      `edit deletes ${found.deleted} ${lines} of ${path} there (from ${preview(found.firstDeleted)}): ` +
      're-send the full text of the lines you elided (if deleting them is meant, apply with --allow-elision)',
    path,
    line,
  };
}

import {
  CONFIG_FILE,
  type EditError,
  decideNames,
  decidePath,
  describeDecidedPath,
  describeRule,
  type PathDecision,
  type PermissionPolicy,
} from '@patchsmith/core';
import type { Plan } from '@patchsmith/planner';
import type { AskPermission, PermissionAnswer, PermissionRefusal } from './run-edit.js';

export type { PathDecision, PermissionAction, PermissionPolicy, PermissionRule } from '@patchsmith/core';
export { decidePath, loadPolicy } from '@patchsmith/core';

/** Every path a plan would write: the paths it changes and the destinations of its moves. */
export function planPaths(plan: Plan): string[] {
  const paths = new Set<string>();
  for (const file of plan.files) {
    paths.add(file.path);
    if (file.movePath !== undefined) paths.add(file.movePath);
  }
  for (const write of plan.writes) paths.add(write.path);
  return [...paths];
}

/**
 * The policy's action for every path the plan would write, decided on the path and, when the
 * reader found it leads elsewhere through a symlink, on its real path too (any deny wins; `via`
 * names the real path when it decided).
 */
export function decide(plan: Plan, policy: PermissionPolicy): (PathDecision & { via?: string })[] {
  const realPaths = new Map(plan.writes.map((write) => [write.path, write.realPath]));
  return planPaths(plan).map((path) => {
    const real = realPaths.get(path);
    return real === undefined ? decidePath(path, policy) : decideNames([path, real], policy);
  });
}

/** What a prompt is asked: the plan, and the paths that need a yes (with the rules that said ask). */
export interface PermissionRequest {
  plan: Plan;
  paths: PathDecision[];
}

export type PermissionPrompt = (request: PermissionRequest) => Promise<PermissionAnswer> | PermissionAnswer;

export interface PermissionGateOptions {
  policy: PermissionPolicy;
  /** Asked for paths whose action is `ask`; without one, such edits are refused. */
  prompt?: PermissionPrompt;
}

/** "a.txt (rule 2 {...} of .patchsmith.json), b.txt (real path secrets/b.txt) (...)" */
export function describePaths(decisions: (PathDecision & { via?: string })[], source: string): string {
  return decisions.map((d) => `${describeDecidedPath(d)} (${describeRule(d, source)})`).join(', ');
}

function refuse(message: string, path?: string): PermissionRefusal {
  return path === undefined ? { answer: 'no', message } : { answer: 'no', message, path };
}

/** The DENIED error of a gate's refusal (`no`, or a refusal that says why). */
export function refusalError(answer: 'no' | PermissionRefusal, what: 'edit' | 'undo'): EditError {
  if (answer === 'no') return { code: 'DENIED', message: `The ${what} was not allowed; nothing was written.` };
  return answer.path === undefined
    ? { code: 'DENIED', message: answer.message }
    : { code: 'DENIED', message: answer.message, path: answer.path };
}

/**
 * The `ask` callback `runEdit` takes, from a policy and an optional prompt. A denied path refuses
 * the whole edit; paths whose rule says ask go to the prompt (refused when there is none); an
 * `always` answer allows those paths for the rest of this gate's life (the session).
 */
export function createPermissionGate(options: PermissionGateOptions): AskPermission {
  const { policy, prompt } = options;
  const source = policy.source ?? CONFIG_FILE;
  const remembered = new Set<string>();
  return async (plan) => {
    const decisions = decide(plan, policy);
    const denied = decisions.filter((d) => d.action === 'deny');
    if (denied.length > 0) {
      return refuse(`Permission denied: ${describePaths(denied, source)}. Nothing was written.`, denied[0]!.path);
    }
    const asks = decisions.filter((d) => d.action === 'ask' && !remembered.has(d.path));
    if (asks.length === 0) return 'yes';
    if (prompt === undefined) {
      return refuse(
        `Permission needed for ${describePaths(asks, source)}, and no one can approve it here. ` +
          `Nothing was written. To allow it, add a rule such as {"match": ${JSON.stringify(asks[0]!.via ?? asks[0]!.path)}, "action": "allow"} ` +
          `after that rule in ${source}.`,
        asks[0]!.path,
      );
    }
    const answer = await prompt({ plan, paths: asks });
    if (answer === 'no')
      return refuse(`Permission refused for ${asks.map((d) => d.path).join(', ')}. Nothing was written.`, asks[0]!.path);
    if (answer === 'always') for (const d of asks) remembered.add(d.path);
    return answer;
  };
}

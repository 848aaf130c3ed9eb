import { resolve } from 'node:path';
import {
  applyPlanned,
  createPermissionGate,
  type EditInput,
  type EditPlan,
  type EditReport,
  loadPolicy,
  planEdit,
  runEdit,
} from '@patchsmith/tool';
import type { AdapterOptions } from './options.js';

/** How many plans wait for an answer at most; a request never answered is forgotten, oldest first. */
const MAX_PENDING = 256;

/** Whether a kept plan was made from this very input (the approved call carries it again). */
function sameInput(plan: EditPlan | undefined, input: EditInput): plan is EditPlan {
  return plan !== undefined && JSON.stringify(plan.input) === JSON.stringify(input);
}

/**
 * The permission gate as an SDK's approval step (`needsApproval`): a call whose edit writes a path
 * whose rule says `ask` needs the person's approval; its plan is kept, by tool call id, for the
 * approval screen (`pending`) and for the approved call, which writes exactly that plan
 * (`applyPlanned`: `STALE` when the files changed since it was shown).
 */
export function createApprovals(options: AdapterOptions) {
  const root = resolve(options.root ?? process.cwd());
  const pending = new Map<string, EditPlan>();

  /** Whether the root's rules ask about a path the edit writes (a deny or a broken config is no question: the call refuses). */
  async function needsApproval(input: EditInput, toolCallId: string): Promise<boolean> {
    // A call id may come again (models number their calls per turn): an earlier call's plan,
    // perhaps one the person refused, never stands for this one.
    if (!sameInput(pending.get(toolCallId), input)) pending.delete(toolCallId);
    const policy = await loadPolicy(root);
    if (!policy.ok) return false;
    const planned = await planEdit(input, { root, ...(options.firstMatch ? { firstMatch: true } : {}) });
    if (!planned.ok) return false;
    let asks = false;
    const gate = createPermissionGate({
      policy: policy.value,
      prompt: () => {
        asks = true;
        return 'no';
      },
    });
    await gate(planned.plan);
    if (!asks) return false;
    // An SDK may ask again when the approval comes back: what the person saw stays the plan.
    if (!pending.has(toolCallId)) {
      if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value!);
      pending.set(toolCallId, planned.edit);
    }
    return true;
  }

  /**
   * Carries out a call: an approved one writes its kept plan, the person's yes answering the
   * rules that ask (a deny still refuses); any other runs as a plain edit under `options.ask`.
   */
  async function run(input: EditInput, toolCallId: string, callOptions: AdapterOptions): Promise<EditReport> {
    const approved = pending.get(toolCallId);
    pending.delete(toolCallId);
    if (!sameInput(approved, input)) return runEdit(input, callOptions);
    const policy = await loadPolicy(root);
    if (!policy.ok) return runEdit(input, callOptions);
    const ask = createPermissionGate({ policy: policy.value, prompt: () => 'yes' });
    const { firstMatch: _fixedByThePlan, ...rest } = callOptions;
    return applyPlanned(approved, { ...rest, root, ask });
  }

  return { needsApproval, run, pending: (toolCallId: string) => pending.get(toolCallId) };
}

import { CONFIG_FILE } from './path-policy.js';
import type { PathDecision } from './permission-rules.js';

/**
 * The rule behind a decision, as people read it in a refusal: `rule 2 {"match": "secrets/**",
 * "action": "deny"} of .patchsmith.json`. For a decision no rule made, `the default (allow)`.
 */
export function describeRule(decision: PathDecision, source = CONFIG_FILE): string {
  const { rule } = decision;
  if (rule === null) return 'the default (allow)';
  return `rule ${decision.ruleIndex + 1} {"match": ${JSON.stringify(rule.match)}, "action": "${rule.action}"} of ${decision.source ?? source}`;
}

/** A decided path for a message: `docs/s/key.txt (real path secrets/key.txt)` when another name decided. */
export function describeDecidedPath(decision: PathDecision & { via?: string }): string {
  return decision.via === undefined ? decision.path : `${decision.path} (real path ${decision.via})`;
}

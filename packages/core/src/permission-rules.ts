import { PatchsmithError } from './errors.js';
import { compileGlob, GlobSyntaxError } from './glob-match.js';
import type { PermissionAction } from './permission-actions.js';

export interface PermissionRule {
  match: string;
  action: PermissionAction;
}

export interface PermissionPolicy {
  /** Evaluated in order; the last rule that matches a path decides. No match: allow. */
  rules: PermissionRule[];
  /** Where the rules came from, for messages (the config file's name, or 'options'). */
  source?: string;
  /**
   * The rules of configs in folders above the root (up to the repository's top), nearest first.
   * Each decides on its own, and the strictest decision of all wins: a folder's rules never lift
   * the rules of a folder above it.
   */
  enclosing?: EnclosingRules[];
}

/** The rules of one config above the root: `prefix` is the root's path from that config's folder. */
export interface EnclosingRules {
  rules: PermissionRule[];
  /** The config file, relative to the root (`../.patchsmith.json`), for messages. */
  source: string;
  prefix: string;
}

/** The action for one path, and the rule that decided it (null: no rule matched, default allow). */
export interface PathDecision {
  path: string;
  action: PermissionAction;
  rule: PermissionRule | null;
  /** 0-based index of the deciding rule in the policy, -1 when none matched. */
  ruleIndex: number;
  /** The config whose rule decided, when it is one above the root (`../.patchsmith.json`). */
  source?: string;
}

export interface MatchOptions {
  /** The volume folds case, so `Secrets/x` is the file `secrets/**` protects. */
  caseInsensitive?: boolean;
}

const matchers = new Map<string, (path: string) => boolean>();

/**
 * A permission glob over `/`-separated root-relative paths, dot files included: a pattern without
 * `/` matches the last segment at any depth (`*.pem` is every .pem file, as in .gitignore); a
 * leading `/` anchors a pattern to the root. Matched by our own linear-time matcher (glob-match.ts
 * says why not picomatch). A host's rule that does not compile throws `PARSE_ERROR` (a config's is
 * refused when the config is read).
 */
function matcherFor(pattern: string, caseInsensitive: boolean): (path: string) => boolean {
  const key = `${caseInsensitive ? 'i' : 's'}${pattern}`;
  let matcher = matchers.get(key);
  if (matcher === undefined) {
    const anchored = pattern.startsWith('/');
    const body = anchored ? pattern.slice(1) : pattern;
    try {
      matcher = compileGlob(body, { basename: !anchored && !body.includes('/'), caseInsensitive });
    } catch (error) {
      if (!(error instanceof GlobSyntaxError)) throw error;
      throw new PatchsmithError(
        'PARSE_ERROR',
        `the permission rule ${JSON.stringify(pattern)} is not a usable glob: ${error.message}`,
      );
    }
    matchers.set(key, matcher);
  }
  return matcher;
}

/** Whether a root-relative path matches a permission glob. */
export function matchesGlob(path: string, pattern: string, options: MatchOptions = {}): boolean {
  return matcherFor(pattern, options.caseInsensitive ?? false)(path);
}

/** The action the policy gives one path: the last matching rule wins, and no match means allow. */
export function decidePath(path: string, policy: PermissionPolicy, options: MatchOptions = {}): PathDecision {
  let decision = decideByRules(path, policy.rules, path, options);
  for (const outer of policy.enclosing ?? []) {
    const theirs = decideByRules(`${outer.prefix}/${path}`, outer.rules, path, options);
    if (STRICTNESS[theirs.action] > STRICTNESS[decision.action])
      decision = { ...theirs, source: outer.source };
  }
  return decision;
}

/** One list of rules on `matched` (the path as its config sees it); the decision names `path`. */
function decideByRules(
  matched: string,
  rules: PermissionRule[],
  path: string,
  options: MatchOptions,
): PathDecision {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (matchesGlob(matched, rule.match, options)) return { path, action: rule.action, rule, ruleIndex: i };
  }
  return { path, action: 'allow', rule: null, ruleIndex: -1 };
}

const STRICTNESS: Record<PermissionAction, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * One file reached under several names (the path as written, the real path it is written
 * through): the strictest of their decisions, so any deny wins, then any ask. Reports the first
 * name as `path` and the name that decided as `via` when it differs.
 */
export function decideNames(
  names: readonly string[],
  policy: PermissionPolicy,
  options: MatchOptions = {},
): PathDecision & { via?: string } {
  const [first, ...rest] = names;
  if (first === undefined) throw new TypeError('decideNames needs at least one name');
  let strictest: PathDecision & { via?: string } = decidePath(first, policy, options);
  for (const name of rest) {
    if (name === first) continue;
    const decision = decidePath(name, policy, options);
    if (STRICTNESS[decision.action] > STRICTNESS[strictest.action]) {
      strictest = { ...decision, path: first, via: name };
    }
  }
  return strictest;
}

import { join, resolve } from 'node:path';
import {
  CONFIG_FILE,
  decideNames,
  describeDecidedPath,
  describeRule,
  type EditError,
  loadConfig,
  type PermissionPolicy,
  protectedPathReason,
  type Result,
} from '@patchsmith/core';
import type { PlannedWrite } from '@patchsmith/planner';
import { caseInsensitiveAt } from './case-folding.js';
import { isMissing, lstatOrNull } from './fs.js';
import { IoFailure, io } from './io-failure.js';
import { type PathContext, type ResolvedTarget, treeName } from './resolve-path.js';

/** What the caller says about permissions; see `ApplyOptions`. */
export interface WritePolicyOptions {
  policy?: PermissionPolicy;
  askApproved?: boolean;
  allowConfigWrites?: boolean;
  allowOutsideLinks?: boolean;
}

/** Everything one apply decides its writes with, worked out once before the first check. */
export interface WritePolicy {
  policy: PermissionPolicy;
  askApproved: boolean;
  allowConfigWrites: boolean;
  /** A host setting: a link the plan makes may lead outside the root (never into private state). */
  allowOutsideLinks: boolean;
  caseInsensitive: boolean;
  /** Where the root's config really is (it may be a symlink to another file of the tree); null when absent. */
  configTarget: string | null;
}

/** Where `.patchsmith.json` leads: its real path, where a dangling link to it points, or null. */
async function findConfigTarget(ctx: PathContext): Promise<string | null> {
  const path = join(ctx.realRoot, CONFIG_FILE);
  try {
    return await ctx.fs.realpath(path);
  } catch (error) {
    if (!isMissing(error)) throw new IoFailure('realpath', path, error);
  }
  // A dangling link: writing its target would create the config.
  const stats = await io('lstat', path, () => lstatOrNull(ctx.fs, path));
  if (!stats?.isSymbolicLink()) return null;
  return resolve(ctx.realRoot, await io('readlink', path, () => ctx.fs.readlink(path)));
}

/** The policy of this apply: the caller's, or the root's `.patchsmith.json` (a broken one is `PARSE_ERROR`). */
export async function loadWritePolicy(
  ctx: PathContext,
  options: WritePolicyOptions,
): Promise<Result<WritePolicy>> {
  let policy = options.policy;
  if (policy === undefined) {
    // On the disk core's own reader refuses a FIFO or a device behind the name without blocking;
    // a host's virtual fs is asked for the name's stat first.
    const config = await loadConfig(ctx.realRoot, ctx.fs);
    if (!config.ok) return config;
    policy = config.value.policy;
  }
  const [caseInsensitive, configTarget] = await Promise.all([
    caseInsensitiveAt(ctx.fs, ctx.realRoot),
    findConfigTarget(ctx),
  ]);
  return {
    ok: true,
    value: {
      policy,
      askApproved: options.askApproved ?? false,
      allowConfigWrites: options.allowConfigWrites ?? false,
      allowOutsideLinks: options.allowOutsideLinks ?? false,
      caseInsensitive,
      configTarget,
    },
  };
}

/** The names a write reaches its file by: as written, and the real paths of the entry and of the file. */
function namesOf(ctx: PathContext, resolved: ResolvedTarget): string[] {
  const names = [resolved.rel, treeName(ctx, resolved.entry), treeName(ctx, resolved.target)];
  return [...new Set(names)];
}

// Two absolute paths name the same entry (folding case where the volume does).
const samePath = (a: string, b: string, caseInsensitive: boolean) =>
  caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b;

/** Why the write would change patchsmith's own config or state, or null. */
function protectedReason(policy: WritePolicy, names: string[], resolved: ResolvedTarget): string | null {
  for (const name of names) {
    const reason = protectedPathReason(name, policy.caseInsensitive);
    if (reason !== null)
      return name === resolved.rel ? reason : `${resolved.rel} leads to ${name}: ${reason}`;
  }
  const config = policy.configTarget;
  const reachesConfig = (path: string) => config !== null && samePath(path, config, policy.caseInsensitive);
  if (reachesConfig(resolved.target) || reachesConfig(resolved.entry)) {
    return `${resolved.rel} is the file ${CONFIG_FILE} leads to, patchsmith's own config`;
  }
  return null;
}

const denied = (write: PlannedWrite, message: string): EditError => ({
  code: 'DENIED',
  message: `${message}; nothing was written`,
  path: write.path,
});

/**
 * Whether the policy lets this write happen, decided over every name of the file (any deny wins,
 * then any ask): a `DENIED` error naming the file, the rule and the real path, or null. The config
 * and the state folder are never written unless the host allows config writes.
 */
export function policyRefusal(
  ctx: PathContext,
  policy: WritePolicy,
  write: PlannedWrite,
  resolved: ResolvedTarget,
): EditError | null {
  const names = namesOf(ctx, resolved);
  const reason = policy.allowConfigWrites ? null : protectedReason(policy, names, resolved);
  if (reason !== null) {
    return denied(
      write,
      `Permission denied: ${reason}, which an edit may not change unless the host allows it`,
    );
  }
  const decision = decideNames(names, policy.policy, { caseInsensitive: policy.caseInsensitive });
  const source = policy.policy.source ?? CONFIG_FILE;
  if (decision.action === 'deny') {
    return denied(
      write,
      `Permission denied: ${describeDecidedPath(decision)} by ${describeRule(decision, source)}`,
    );
  }
  if (decision.action === 'ask' && !policy.askApproved) {
    return denied(
      write,
      `Permission needed for ${describeDecidedPath(decision)} (${describeRule(decision, source)}), and nobody approved it`,
    );
  }
  return null;
}

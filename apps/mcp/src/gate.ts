import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Result } from '@patchsmith/core';
import {
  type AskPermission,
  createPermissionGate,
  type PermissionPolicy,
  type PermissionPrompt,
} from '@patchsmith/tool';

/**
 * Reads the permission policy of a root again, e.g. `loadPolicy`; a failure is that call's error.
 * Given the call's root (the client's, when it offers roots).
 */
export type PolicySource = (root: string) => Promise<Result<PermissionPolicy>>;

/** The most diff characters an approval prompt shows; the rest is summed up in a line. */
const PROMPT_DIFF_CHARACTERS = 20_000;

/** The plan's diff for a person to approve, cut (with a note) when it is longer than a prompt holds. */
function promptDiff(diffs: string[]): string {
  const whole = diffs.join('');
  if (whole.length <= PROMPT_DIFF_CHARACTERS) return whole;
  const cut = whole.lastIndexOf('\n', PROMPT_DIFF_CHARACTERS) + 1;
  return `${whole.slice(0, cut)}[... ${whole.length - cut} more characters of diff not shown]\n`;
}

/** Asks the person at the MCP client, through elicitation, whether the plan may be written; shows its diff. */
function elicitationPrompt(server: McpServer): PermissionPrompt {
  return async ({ paths, plan }) => {
    const names = paths.map((p) => p.path).join(', ');
    const result = await server.server.elicitInput({
      message: `patchsmith wants to write ${names}. Allow it?\n\n${promptDiff(plan.files.map((f) => f.diff))}`,
      requestedSchema: {
        type: 'object',
        properties: {
          answer: {
            type: 'string',
            enum: ['yes', 'no', 'always'],
            description: 'always: allow these paths for this session',
          },
        },
        required: ['answer'],
      },
    });
    const answer = result.action === 'accept' ? result.content?.answer : 'no';
    return answer === 'yes' || answer === 'always' ? answer : 'no';
  };
}

/** Whether the connected client can put a question to its user. */
function canElicit(server: McpServer): boolean {
  return server.server.getClientCapabilities()?.elicitation !== undefined;
}

/**
 * The policy's gate. The client's capabilities are known only once it connects, so the choice is
 * made per call: with elicitation, `ask` paths go to the user; without, they are refused with a
 * message saying how to allow them.
 */
function policyGate(server: McpServer, policy: PermissionPolicy): AskPermission {
  const asking = createPermissionGate({ policy, prompt: elicitationPrompt(server) });
  const refusing = createPermissionGate({ policy });
  return (plan) => (canElicit(server) ? asking(plan) : refusing(plan));
}

/**
 * The gate of each call: the one given, the fixed policy's, the one of the policy read now, or none
 * (then `runEdit` reads the root's rules itself, with nobody to ask). A policy read again keeps its
 * gate while its rules stay the same, so an `always` answer lasts the session.
 */
export function gateSource(
  server: McpServer,
  policy: PermissionPolicy | PolicySource | undefined,
  ask: AskPermission | undefined,
): (root: string) => Promise<Result<AskPermission | undefined>> {
  if (ask !== undefined || policy === undefined) return async () => ({ ok: true, value: ask });
  if (typeof policy !== 'function') {
    const gate = policyGate(server, policy);
    return async () => ({ ok: true, value: gate });
  }
  let last: { key: string; gate: AskPermission } | undefined;
  return async (root) => {
    const read = await policy(root);
    if (!read.ok) return read;
    const key = JSON.stringify([root, read.value]);
    if (last?.key !== key) last = { key, gate: policyGate(server, read.value) };
    return { ok: true, value: last.gate };
  };
}

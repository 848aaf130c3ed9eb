import { openSync } from 'node:fs';
import type { PermissionPolicy } from '@patchsmith/tool';
import { type Io, stdinIsTTY } from './io.js';

// Where answers come from and what is asked; the prompt itself (readline, the terminal's stream,
// colours: 32 more of Node's own modules, ~2 ms of every start) is in terminal-prompt.ts, loaded
// when the first question is asked.

/** Where answers come from: stdin when it is free, else the controlling terminal, else nowhere. */
export function answerSource(
  io: Io,
  patchFromStdin: boolean,
  explicitConfirm: boolean,
): (() => Promise<NodeJS.ReadableStream>) | null {
  // An explicit --confirm with a piped stdin reads scripted answers from it.
  if (!patchFromStdin && (stdinIsTTY(io) || explicitConfirm)) return async () => io.stdin;
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r');
  } catch {
    return null;
  }
  return async () => new (await import('node:tty')).ReadStream(fd);
}

/** `--confirm`: every path the policy allows is asked about too (denied paths stay denied). */
export function confirmEverything(policy: PermissionPolicy): PermissionPolicy {
  return {
    ...policy,
    rules: [
      { match: '**', action: 'ask' },
      ...policy.rules.map((r) => (r.action === 'allow' ? { ...r, action: 'ask' as const } : r)),
    ],
  };
}

import { createInterface } from 'node:readline';
import type { ReadStream } from 'node:tty';
import { colorDiff } from '@patchsmith/formatter';
import type { PermissionAnswer, PermissionPrompt } from '@patchsmith/tool';
import pc from 'picocolors';
import type { Io } from './io.js';

const ANSWERS: Record<string, PermissionAnswer | 'cancel'> = {
  y: 'yes',
  yes: 'yes',
  n: 'no',
  no: 'no',
  a: 'always',
  always: 'always',
  c: 'cancel',
  cancel: 'cancel',
  '': 'no',
};

/**
 * The terminal prompt of `--confirm` and of `ask` rules: each file's coloured diff, then
 * yes / no / always for these paths / cancel. Anything unreadable counts as no.
 */
export function terminalPrompt(io: Io, input: NodeJS.ReadableStream): PermissionPrompt {
  const color = io.isTTY && !io.env.NO_COLOR;
  const c = pc.createColors(color);
  return async ({ plan, paths }) => {
    const asked = new Set(paths.map((p) => p.path));
    for (const file of plan.files) {
      if (!asked.has(file.path) && !(file.movePath && asked.has(file.movePath))) continue;
      io.stderr(`${colorDiff(file.diff.replace(/\n$/, ''), c)}\n`);
    }
    const rl = createInterface({ input, terminal: false });
    // The iterator buffers lines that arrive before they are asked for (scripted answers do).
    const lines = rl[Symbol.asyncIterator]();
    try {
      for (;;) {
        io.stderr(
          `Apply changes to ${[...asked].join(', ')}? [y]es / [n]o / [a]lways for these paths / [c]ancel: `,
        );
        const next = await lines.next();
        if (next.done) return 'no';
        const answer = ANSWERS[String(next.value).trim().toLowerCase()];
        if (answer === 'cancel') return 'no';
        if (answer) return answer;
      }
    } finally {
      rl.close();
      if (input !== io.stdin) (input as ReadStream).destroy?.();
    }
  };
}

import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { EditProgress, EditStage } from '@patchsmith/tool';

/** What the SDK hands a tool handler: the call's cancel signal, its progress token, a way to notify. */
export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const STAGES: readonly EditStage[] = ['planning', 'asking', 'writing', 'diagnosing'];

/**
 * `runEdit`'s `onProgress` as MCP progress notifications, when the client asked for them (a
 * `progressToken` in the call's `_meta`); a notification that cannot be sent is dropped.
 */
export function progressNotifier(extra: CallExtra): ((progress: EditProgress) => void) | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return ({ stage, files }) => {
    const message = files === 0 ? stage : `${stage}: ${files} file(s)`;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: STAGES.indexOf(stage) + 1, total: STAGES.length, message },
      })
      .catch(() => {});
  };
}

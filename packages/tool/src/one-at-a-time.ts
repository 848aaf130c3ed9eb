/**
 * Runs calls one after another. Tool runners (Anthropic's, the Vercel AI SDK's) execute a turn's
 * tool calls concurrently; two edits planned against the same file state would then race, and
 * the second would fail `STALE`. Queued, each edit plans against what the previous one wrote.
 */
export function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>) => {
    const result = tail.then(task, task);
    tail = result.catch(() => {});
    return result;
  };
}

// A bounded pool: the batch runner (src/send), the settling lookups and `contacts clean`'s day
// lookups each run their requests a few at a time through it. Pure (no I/O of its own), so it
// lives below every folder that needs it.

/**
 * Runs `work` over the items with at most `limit` running at once, in order of the items.
 * `shouldStart` is asked before each new item starts; once it says no (a fatal error, Ctrl-C),
 * nothing new starts and the pool waits for what is already running. Errors are the worker's
 * to handle: a rejected `work` stops the pool and is rethrown after the others finish.
 */
export async function runPool<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>, shouldStart: () => boolean = () => true): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (next < items.length && !failure && shouldStart()) {
      const i = next++;
      try {
        await work(items[i], i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure) throw failure.error;
}

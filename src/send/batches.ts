// Splitting recipients into requests, and running those requests a few at a time.

/** Spec 001 section 4 (and decisions row 3 for SMS): at most 100 recipients per request. */
export const BATCH_SIZE = 100;
/** decisions row 16: no documented rate limit, so a modest number of requests in flight. */
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 16;

export function chunk<T>(items: T[], size = BATCH_SIZE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

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

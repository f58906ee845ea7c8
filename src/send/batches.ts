// Splitting recipients into requests; the requests run a few at a time through runPool
// (src/core/pool.ts).

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

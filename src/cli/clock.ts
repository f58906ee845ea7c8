import { setTimeout as delay } from 'node:timers/promises';

/** Time, injectable so polling and rate limits can be tested without real waiting. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => (ms <= 0 ? Promise.resolve() : delay(ms, undefined, { signal })),
};

// Virtual time for a CLI run whose pacing is the thing tested (report sync's 10-second exports):
// a Clock whose sleeps end at once in real time, and the fetch the run must use with it.
// Time passes only between requests: while any request is in flight it stands still (so an
// answer is stamped with the time its request left, as on a fast network), and once none is,
// the sleeper due first wakes and the clock moves to its due time. Sleeps side by side overlap
// as they do in real time, in the order they fall due; nothing here measures the wall clock.
import type { Clock } from '../../src/core/clock.js';
import type { FetchLike } from '../../src/api/http.js';

export interface VirtualTime {
  clock: Clock;
  /** Pass as runCli's `fetch`: it holds time still while a request is in flight. */
  fetch: FetchLike;
  /** Every sleep asked for, in ms, in order. */
  slept: number[];
  /** The virtual time each request left at, by method and URL path. */
  sent: Array<{ at: number; method: string; path: string }>;
}

export function virtualTime(start = Date.now()): VirtualTime {
  let t = start;
  let inFlight = 0;
  let seq = 0;
  let stepping = false;
  const sleepers: Array<{ due: number; seq: number; wake: () => void }> = [];
  const slept: number[] = [];
  const sent: VirtualTime['sent'] = [];

  // One macrotask between wakes lets what the last one started (a request, the next sleep) begin.
  const step = () => {
    if (stepping) return;
    stepping = true;
    setImmediate(function next() {
      if (inFlight > 0 || !sleepers.length) {
        stepping = false; // resumed when a request settles or someone sleeps
        return;
      }
      sleepers.sort((a, b) => a.due - b.due || a.seq - b.seq);
      const s = sleepers.shift()!;
      t = Math.max(t, s.due);
      s.wake();
      setImmediate(next);
    });
  };

  const clock: Clock = {
    now: () => t,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        slept.push(ms);
        sleepers.push({ due: t + Math.max(0, ms), seq: seq++, wake: resolve });
        step();
      }),
  };

  const fetch: FetchLike = async (input, init) => {
    const req = input instanceof Request ? input : undefined;
    sent.push({ at: t, method: (req?.method ?? init?.method ?? 'GET').toUpperCase(), path: new URL(req?.url ?? String(input)).pathname });
    inFlight++;
    try {
      return await globalThis.fetch(input, init);
    } finally {
      inFlight--;
      step();
    }
  };

  return { clock, fetch, slept, sent };
}

// How long a transfer may take: it ends when nothing moves for the idle time-out, when it comes
// in under a throughput floor, or, when the run sets one (report downloads under --timeout), when
// its deadline passes however steadily it moves. Downloads and uploads (src/api/files.ts) use this
// guard; an API answer is bounded by its request's time-out as a whole (src/api/http.ts).

/** A window's length for a sentence: "60 s", or "0.5 s" as tests set it. */
export const duration = (ms: number) => `${ms >= 10_000 ? Math.round(ms / 1000) : ms / 1000} s`;

/**
 * The slowest a download or an API answer may come in: at least `bytes` in every `windowMs`,
 * counted from its first byte. The idle guard alone let a host that sends a line every few
 * seconds hold a download (and report sync's lock) for ever. 64 KiB a minute is about 1 KiB/s,
 * 8.7 kbit/s: far below any real link, even a poor mobile one (a 2G EDGE link carries some 20
 * times as much), and an answer small enough to come in under it finishes within the first minute.
 */
export const MIN_DOWNLOAD_RATE: MinRate = { bytes: 64 * 1024, windowMs: 60_000 };

export interface MinRate {
  bytes: number;
  windowMs: number;
}

/**
 * Watches a transfer: aborts it when nothing moves for `ms` (`stalled`), on the caller's Ctrl-C,
 * once `metre()` has started it, when fewer than `floor.bytes` came in one `floor.windowMs`
 * (`slow`: how many did), and when `deadlineMs` has passed since it began (`late`).
 */
export function stallGuard(signal: AbortSignal | undefined, ms: number, floor?: MinRate, deadlineMs?: number) {
  const ac = new AbortController();
  const onAbort = () => ac.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  let window: NodeJS.Timeout | undefined;
  let inWindow = 0;
  const deadline = deadlineMs === undefined ? undefined : setTimeout(() => {
    guard.late = true;
    ac.abort();
  }, deadlineMs);
  const guard = {
    signal: ac.signal,
    stalled: false,
    /** The whole transfer took longer than `deadlineMs`. */
    late: false,
    /** Bytes that came in during the window that was too slow. */
    slow: undefined as number | undefined,
    arm() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        guard.stalled = true;
        ac.abort();
      }, ms);
    },
    /** `n` bytes moved: the idle clock starts again, and they count toward the window's floor. */
    moved(n: number) {
      inWindow += n;
      guard.arm();
    },
    /** Starts the throughput floor (when the body begins: waiting for the answer is the idle guard's). */
    metre() {
      if (!floor || window) return;
      window = setInterval(() => {
        if (inWindow < floor.bytes) {
          guard.slow = inWindow;
          ac.abort();
        }
        inWindow = 0;
      }, floor.windowMs);
    },
    done() {
      clearTimeout(timer);
      clearTimeout(deadline);
      clearInterval(window);
      signal?.removeEventListener('abort', onAbort);
    },
  };
  guard.arm();
  return guard;
}

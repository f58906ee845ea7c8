/** At most `n` of the given tasks run at once, across every caller; the rest wait their turn in order. */
export function slots(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (active < n) active++;
    else await new Promise<void>((r) => waiting.push(r));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next(); // the slot passes straight to the next task
      else active--;
    }
  };
}

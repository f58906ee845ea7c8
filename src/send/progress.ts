// A one-line progress bar on stderr, only for a person watching a terminal (never piped,
// never with --json or --quiet, never in CI).
import type { IO } from '../run/io.js';
import { count } from '../core/human.js';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

const silent: Progress = { update() {}, stop() {} };

export function progressBar(io: IO, label: string, width = 28): Progress {
  if (!io.canAnimate) return silent;
  let last = 0;
  let shown = false;
  const draw = (done: number, total: number) => {
    const frac = total ? Math.min(1, done / total) : 1;
    const full = Math.round(frac * width);
    const bar = '█'.repeat(full) + '░'.repeat(width - full);
    io.stderr.write(`\r\u001b[K${label} ${io.paint('cyan', bar)} ${count(done)}/${count(total)} (${Math.round(frac * 100)}%)`);
    shown = true;
  };
  return {
    update(done, total) {
      const now = Date.now();
      // At most ten redraws a second, but always the last one.
      if (done < total && now - last < 100) return;
      last = now;
      draw(done, total);
    },
    stop() {
      if (shown) io.stderr.write('\r\u001b[K');
      shown = false;
    },
  };
}

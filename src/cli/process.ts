// The bridge to the real process: streams, TTY detection, Ctrl-C, exit code.
import { main } from './main.js';

export async function runFromProcess(): Promise<void> {
  const controller = new AbortController();
  let interrupts = 0;
  process.on('SIGINT', () => {
    interrupts += 1;
    // First Ctrl-C: let the command stop cleanly and say how to resume. Second: leave now.
    if (interrupts > 1) process.exit(130);
    controller.abort();
  });
  // `mailctl … | head` (or `2>&1 | head`) closes the pipe early: that ends the run quietly
  // rather than with an unhandled stream error. Handlers are attached when a stream is first
  // used, so unused streams are never created.
  const ready = new Set<NodeJS.WriteStream>();
  const guarded = (stream: () => NodeJS.WriteStream) => () => {
    const s = stream();
    if (!ready.has(s)) {
      ready.add(s);
      s.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
        throw e;
      });
    }
    return s;
  };
  const stdout = guarded(() => process.stdout);
  const stderr = guarded(() => process.stderr);
  const code = await main({
    argv: process.argv.slice(2),
    env: process.env,
    // Getters: each process stream is created (net, tty, streams) only when first used.
    get stdin() {
      return process.stdin;
    },
    get stdinTTY() {
      return !!process.stdin.isTTY;
    },
    get stdout() {
      return stdout();
    },
    get stderr() {
      return stderr();
    },
    get stdoutTTY() {
      return !!stdout().isTTY;
    },
    get stderrTTY() {
      return !!stderr().isTTY;
    },
    signal: controller.signal,
  });
  process.exitCode = code;
}

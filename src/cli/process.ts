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
  let stdoutReady = false;
  const stdout = () => {
    if (!stdoutReady) {
      stdoutReady = true;
      // `mailctl … | head` closes stdout early; that is not an error worth a stack trace.
      process.stdout.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      });
    }
    return process.stdout;
  };
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
      return process.stderr;
    },
    get stdoutTTY() {
      return !!stdout().isTTY;
    },
    get stderrTTY() {
      return !!process.stderr.isTTY;
    },
    signal: controller.signal,
  });
  process.exitCode = code;
}

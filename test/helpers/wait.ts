// Small test plumbing shared by the files that wait on processes and ports.
import net from 'node:net';

/** Polls `fn` until it returns something truthy; fails the test after `ms` with what it waited for. */
export async function until<T>(what: string, fn: () => T | undefined | false | Promise<T | undefined | false>, ms = 8000, everyMs = 10): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A loopback port that was free a moment ago: nothing listens on it, so a connection is refused. */
export async function unusedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

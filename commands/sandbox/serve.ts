import type { Context } from '../../src/cli/context.js';
import { parseWhole } from '../../src/cli/parse.js';
import { SANDBOX_KEYS } from '../../src/sandbox/constants.js';

export async function run(ctx: Context, opts: { port?: string; dailyLimit?: string; rateLimit?: boolean }): Promise<void> {
  const port = opts.port === undefined ? 0 : parseWhole(opts.port, '--port', 0, 65535);
  const { startSandboxServer } = await import('../../src/sandbox/server.js');
  const limits = { perSecond: opts.rateLimit === false ? (false as const) : 2, ...(opts.dailyLimit ? { daily: parseWhole(opts.dailyLimit, '--daily-limit', 1) } : {}) };
  let running;
  try {
    running = await startSandboxServer({ port, limits });
  } catch (e) {
    const { UsageError } = await import('../../src/cli/errors.js');
    throw new UsageError(`Cannot listen on port ${port}: ${(e as Error).message}.`, 'Choose another --port, or leave it out to take a free one.');
  }
  const info = { campaignUrl: running.campaignUrl, notifyUrl: running.notifyUrl, keys: SANDBOX_KEYS };
  if (ctx.io.json) ctx.io.printJson(info);
  else {
    ctx.io.out(`MAILCTL_CAMPAIGN_URL=${running.campaignUrl}`);
    ctx.io.out(`MAILCTL_NOTIFY_URL=${running.notifyUrl}`);
    ctx.io.out(`MAILCTL_CAMPAIGN_API_KEY=${SANDBOX_KEYS.campaign}`);
    ctx.io.out(`MAILCTL_NOTIFY_API_KEY=${SANDBOX_KEYS.notify}`);
    ctx.io.info('Sandbox listening; these keys open nothing real. Ctrl-C stops it.');
  }
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await running.close();
  ctx.io.info('Sandbox stopped.');
}

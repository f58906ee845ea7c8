import { parseWhole } from '../../src/core/parse-whole.js';
import { SANDBOX_KEYS } from '../../src/sandbox/constants.js';
import { LINK_TARGETS } from '../../src/sandbox/links.js';
import { alternatesIn, parseShapeArgs } from '../../src/sandbox/shapes.js';
import { suggest } from '../../src/core/suggest.js';
import type { Verb } from '../../src/cli/declared.js';
import type { declareServe } from './index.js';

export const run: Verb<typeof declareServe> = async (ctx, opts) => {
  const port = opts.port === undefined ? 0 : parseWhole(opts.port, '--port', 0, 65535);
  const shapes = parseShapeArgs(opts.shape ?? []);
  if (typeof shapes === 'string') {
    const { UsageError } = await import('../../src/core/errors.js');
    throw new UsageError(shapes, `See \`${suggest(ctx, 'sandbox', 'serve', '--help')}\` for the shapes and their values.`);
  }
  const { startSandboxServer } = await import('../../src/sandbox/server.js');
  const limits = { perSecond: opts.rateLimit === false ? (false as const) : 2, ...(opts.dailyLimit ? { daily: parseWhole(opts.dailyLimit, '--daily-limit', 1) } : {}) };
  let running;
  try {
    running = await startSandboxServer({ port, limits, shapes });
  } catch (e) {
    const { UsageError } = await import('../../src/core/errors.js');
    throw new UsageError(`Cannot listen on port ${port}: ${(e as Error).message}.`, 'Choose another --port, or leave it out to take a free one.');
  }
  const linkTargets = LINK_TARGETS.map((t) => t.path);
  const info = { campaignUrl: running.campaignUrl, notifyUrl: running.notifyUrl, linksUrl: running.linksUrl, linkTargets, keys: SANDBOX_KEYS, shapes };
  if (ctx.io.json) ctx.io.printJson(info);
  else {
    ctx.io.out(`MAILCTL_CAMPAIGN_URL=${running.campaignUrl}`);
    ctx.io.out(`MAILCTL_NOTIFY_URL=${running.notifyUrl}`);
    ctx.io.out(`MAILCTL_CAMPAIGN_API_KEY=${SANDBOX_KEYS.campaign}`);
    ctx.io.out(`MAILCTL_NOTIFY_API_KEY=${SANDBOX_KEYS.notify}`);
    // A comment line: the lines above stay usable as an env file.
    ctx.io.out(`# link targets for campaign preflight: ${running.linksUrl}/NAME, NAME one of ${linkTargets.join(', ').replace('404', '404 (or any 4xx/5xx)')}`);
    const shown = alternatesIn(shapes);
    if (shown.length) ctx.io.info(`Serving alternate response shapes: ${shown.join(', ')}.`);
    ctx.io.info('Sandbox listening; these keys open nothing real. Ctrl-C stops it.');
  }
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await running.close();
  ctx.io.info('Sandbox stopped.');
};

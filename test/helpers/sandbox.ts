// Starts the real sandbox on a free loopback port for a test file.
import { afterAll, beforeAll } from 'vitest';
import { startSandboxServer, type RunningSandbox, type ServeOptions } from '../../src/sandbox/server.js';

/** Test defaults: spec behaviour, with the per-second limit off and short processing times. */
export const TEST_SANDBOX: ServeOptions = {
  limits: { perSecond: false, exportEvery10s: false },
  delays: { importProcessing: 100, campaignPrepare: 100, campaignSending: 150, reportExport: 100, notifyEvents: 50 },
  tickMs: 25,
};

export function useSandbox(o: ServeOptions = {}): { get: () => RunningSandbox } {
  let running: RunningSandbox | undefined;
  beforeAll(async () => {
    running = await startSandboxServer({ ...TEST_SANDBOX, ...o, limits: { ...TEST_SANDBOX.limits, ...o.limits }, delays: { ...TEST_SANDBOX.delays, ...o.delays } });
  });
  afterAll(async () => {
    await running?.close();
  });
  return {
    get: () => {
      if (!running) throw new Error('sandbox not started');
      return running;
    },
  };
}

export async function startTestSandbox(o: ServeOptions = {}): Promise<RunningSandbox> {
  return startSandboxServer({ ...TEST_SANDBOX, ...o, limits: { ...TEST_SANDBOX.limits, ...o.limits }, delays: { ...TEST_SANDBOX.delays, ...o.delays } });
}

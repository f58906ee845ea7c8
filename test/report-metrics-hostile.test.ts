// `mailctl report metrics` against a HOSTILE service (test/helpers/hostile-server.ts): a row's
// reportType is the service's word, and one named like an Object property (`constructor`,
// `__proto__`) is shown as the word it is, not as what Object.prototype holds under that name.
import { describe, expect, it } from 'vitest';
import { runCli, tsvRows } from './helpers/cli.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';

const hs = useHostileServer();

describe('report metrics: report types named like Object properties', () => {
  it('constructor and __proto__ are shown as words, after the rows the spec names', async () => {
    const row = (reportType: string) => ({ campaignSn: 'CP1', name: 'Spring', reportType, channel: 'MAIL', recipientCnt: 10, delivered: 9 });
    hs.get().on('POST', '/campaign/v1/report/campaigns/metrics', reply.json([row('constructor'), row('__proto__'), row('TEST_A'), row('TOTAL')]));
    const r = await runCli(['report', 'metrics', 'CP1'], { env: { ...hs.get().env, NO_COLOR: '1' } });
    expect(r.exitCode, r.stderr).toBe(0);
    const rows = tsvRows(r.stdout).map((l) => l[2]);
    expect(rows.slice(0, 2)).toEqual(['total', 'A']);
    expect(rows.slice(2).sort()).toEqual(['__proto__', 'constructor']);
    expect(r.stdout).not.toContain('function');
  });
});

// The metrics chart measured from outside (issue 22.2): the built mailctl on a real terminal,
// against the sandbox, draws each campaign's rates as bars, in colour, and an A/B test's two
// versions side by side with the winner the sandbox chose (its WINNING row's subject).
import { beforeAll, describe, expect, it, afterEach } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { useSandbox } from './helpers/sandbox.js';
import { Pty, ptyUnavailable } from './helpers/pty.js';
import { abBody, campaignApi, campaignUntil, groupWith, emails } from './helpers/campaign-api.js';
import { FINISHED_CAMPAIGNS, finishedCampaigns } from './helpers/report-sync.js';
import { SANDBOX_KEYS } from '../src/sandbox/constants.js';

const sb = useSandbox({ expect: [...FINISHED_CAMPAIGNS, 'POST /campaign/v1/campaign/testing/submit', 'POST /campaign/v1/report/campaigns/metrics'] });
let regular: string;
let ab: string;
let winner: 'A' | 'B';
let pty: Pty | undefined;
afterEach(() => pty?.kill());

beforeAll(async () => {
  [regular] = await finishedCampaigns(sb.get, 1, 40);
  const api = campaignApi(sb.get);
  const r = await api.post('/v1/campaign/testing/submit', abBody([await groupWith(api, emails(40, 'ab'), 'AB readers')], 50));
  ab = r.json.sn;
  await campaignUntil(api, ab, 'COMPLETE', 15_000);
  winner = sb.get().sandbox.state.campaign.campaigns.find((c) => c.sn === ab)!.winner!;
}, 30_000);

function run(env: Record<string, string> = {}): Pty {
  const dir = tempDir();
  return new Pty(['report', 'metrics', regular, ab], {
    cols: 110,
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, MAILCTL_CONFIG_DIR: dir, MAILCTL_CAMPAIGN_URL: sb.get().campaignUrl, MAILCTL_CAMPAIGN_API_KEY: SANDBOX_KEYS.campaign, ...env },
  });
}

describe.skipIf(ptyUnavailable)(`report metrics on a real terminal${ptyUnavailable ? ` (skipped: ${ptyUnavailable})` : ''}`, () => {
  it('bars in colour under the table, and the A/B versions side by side with the winner named', async () => {
    pty = run();
    expect(await pty.exited(30_000)).toBe(0);
    const text = pty.text();
    const chart = text.slice(text.indexOf('Rates:'));
    expect(chart).toContain(regular);
    expect(chart).toMatch(new RegExp(`${ab}.*A/B test: winner ${winner} \\(version ${winner}'s subject is the one the rest received\\)`));
    const delivered = chart.split('\n').filter((l) => l.trimStart().startsWith('delivered'));
    expect(delivered).toHaveLength(2);
    expect(delivered[1].match(/\d+\.\d%/g)).toHaveLength(2); // A and B on one line
    expect(pty.raw).toMatch(/\u001b\[32m█/); // delivered bars in green
  }, 60_000);

  it('NO_COLOR: the same bars, no colour', async () => {
    pty = run({ NO_COLOR: '1' });
    expect(await pty.exited(30_000)).toBe(0);
    expect(pty.text()).toMatch(/delivered\s+█+/);
    expect(pty.raw).not.toMatch(/\u001b\[3\dm/);
  }, 60_000);
});

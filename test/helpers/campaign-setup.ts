// Fixtures for the campaign/report tests: groups with contacts in the sandbox (made with plain
// HTTP, so the CLI's own requests are the only campaign-create traffic a test looks at), files
// in a temp dir, and filters over what the sandbox received.
import fs from 'node:fs';
import path from 'node:path';
import { campaignApi, pollUntil } from './campaign-api.js';
import { tempDir } from './cli.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import type { Recorded } from '../../src/sandbox/types.js';

export function campaignFixtures(get: () => RunningSandbox) {
  const api = campaignApi(get);
  return {
    api,
    /** A group holding `n` contacts, import finished. Returns its code. */
    async group(name: string, n = 5): Promise<string> {
      const r = await api.post('/v1/contacts/lists/insert', { name });
      const sn = r.json.sn as string;
      if (n > 0) {
        const rows = Array.from({ length: n }, (_, i) => `${name.toLowerCase().replace(/\W+/g, '')}${i}@example.org,Person ${i}`);
        const started = await api.post(`/v1/contacts/imports/${sn}/text`, { contacts: ['EMAIL,NAME', ...rows].join('\n') });
        await pollUntil(() => api.get(`/v1/contacts/imports/result/${started.json.importSn}`), (x) => x.json?.status === 'COMPLETE');
      }
      return sn;
    },
    /** Campaign-creation requests (endpoints 7-10) received since `from`. */
    submits(from = 0): Recorded[] {
      return get().sandbox.requests('campaign').slice(from).filter((r) => r.method === 'POST' && /^\/v1\/campaign\//.test(r.path));
    },
    mark(): number {
      return get().sandbox.requests('campaign').length;
    },
  };
}

export function writeFiles(files: Record<string, string>): string {
  const dir = tempDir('mailctl-campaign-');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** The test's "now" is the real clock; far-future dates keep scheduled tests valid for years. */
export const FUTURE_YEAR = 2035;

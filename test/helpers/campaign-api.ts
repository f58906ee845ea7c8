// Plain-fetch access to the sandbox's campaign service for the sandbox's own tests: they check
// the emulator against the spec, so they talk HTTP directly rather than through the client.
import { SANDBOX_KEYS } from '../../src/sandbox/constants.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

export interface ApiResult<T = any> {
  status: number;
  json: T;
  text: string;
}

export function campaignApi(get: () => RunningSandbox, key: string = SANDBOX_KEYS.campaign) {
  async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResult<T>> {
    const init: RequestInit = { method, headers: { 'x-api-key': key, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as string) : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(get().campaignUrl + path, init);
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  }
  return {
    call,
    get: <T = any>(path: string) => call<T>('GET', path),
    post: <T = any>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
    del: <T = any>(path: string, body?: unknown) => call<T>('DELETE', path, body),
    patch: <T = any>(path: string) => call<T>('PATCH', path),
  };
}

/** Polls `probe` until `done` holds (or fails after `timeoutMs`): state changes take sandbox time. */
export async function pollUntil<T>(probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 8000, everyMs = 20): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`condition not reached in ${timeoutMs} ms; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export type CampaignApi = ReturnType<typeof campaignApi>;

/** A group with these members (EMAIL,NAME rows), imported by text and COMPLETE. */
/** What groupWith() and campaignFixtures().group() ask the sandbox for, as useSandbox({ expect }) entries. */
export const GROUP_SETUP = [
  'POST /campaign/v1/contacts/lists/insert',
  'POST /campaign/v1/contacts/imports/:listSn/text',
  'GET /campaign/v1/contacts/imports/result/:importSn',
];

/**
 * What `mailctl import FILE --group NAME [--create-group] --wait` of a small file asks the
 * sandbox (the group looked up or made, the contacts sent as text, the result followed), as
 * useSandbox({ expect }) entries. A larger file is uploaded instead: add IMPORT_BY_FILE.
 */
export const IMPORT_BY_TEXT = [
  'GET /campaign/v1/contacts/lists',
  'POST /campaign/v1/contacts/lists/insert',
  'POST /campaign/v1/contacts/imports/:listSn/text',
  'GET /campaign/v1/contacts/imports/result/:importSn',
];

/** A file import's own requests: the upload address asked for, and the PUT to it. */
export const IMPORT_BY_FILE = ['POST /campaign/v1/contacts/imports/:listSn/file', 'PUT /files/u/:token'];

export async function groupWith(api: CampaignApi, emails: string[], name = 'G'): Promise<string> {
  const sn = (await api.post('/v1/contacts/lists/insert', { name })).json.sn as string;
  if (emails.length) {
    const started = await api.post(`/v1/contacts/imports/${sn}/text`, { contacts: ['EMAIL,NAME', ...emails.map((e) => `${e},${e.split('@')[0]}`)].join('\n') });
    await pollUntil(() => api.get(`/v1/contacts/imports/result/${started.json.importSn}`), (r) => r.json.status === 'COMPLETE');
  }
  return sn;
}

export const emails = (n: number, prefix = 'p'): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.org`);

/** A valid endpoint-7 body (send now) for these groups. */
export function campaignBody(selectedLists: string[], excludeLists: string[] = []) {
  return {
    form: { name: 'Autumn sale', selectedLists, excludeLists },
    content: { subject: 'Hello ${NAME}', preheader: 'Our autumn offers', fromName: 'News', fromAddress: 'news@example.com', htmlContent: '<p>Hi ${NAME}</p>', footerLang: 0 },
    config: { schedule: { type: 0 }, ga: { enable: false, ecommerceEnable: false } },
  } as any;
}

/** A valid endpoint-9 body: a subject test. */
export function abBody(selectedLists: string[], proportion = 40) {
  const b = campaignBody(selectedLists);
  Object.assign(b.content, { testingOn: 1, testing: { proportion, time: 1, unit: 0 }, subjectA: 'Version A', subjectB: 'Version B' });
  delete b.content.subject;
  return b;
}

export const statusOf = async (api: CampaignApi, sn: string): Promise<string> => (await api.get(`/v1/campaign/normal/${sn}`)).json[0]?.status;

/** Polls a campaign until it reaches `want`, returning every status seen on the way. */
export async function campaignUntil(api: CampaignApi, sn: string, want: string, timeoutMs = 8000): Promise<string[]> {
  const seen: string[] = [];
  await pollUntil(
    async () => {
      const s = await statusOf(api, sn);
      if (seen[seen.length - 1] !== s) seen.push(s);
      return s;
    },
    (s) => s === want,
    timeoutMs,
    10,
  );
  return seen;
}

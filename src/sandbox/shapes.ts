// Response shapes the services may really use where the specs, the vendor's reference or the
// official CLI's stubs (docs/spec/vendor-excerpts.txt, decisions rows 8, 13, 29, 34…) show more than
// one. The sandbox answers with the spec's primary shape unless told otherwise; each variant
// exists so the client's reading of it (src/api/answers/) runs in a test
// (test/api-alternate-shapes.test.ts) and can be tried by hand (`mailctl sandbox serve --shape`).
// This table is the one declaration: the option type, the flag's values and its help come from it.
// The first value of each is the default; the routes that answer apply their own choice.
// Apart from the table, `unknown` wraps every answer in a key nobody documents, so a test can
// hold every read command to exit 1 / BAD_RESPONSE on a shape the client must not guess at.

export const SHAPES = {
  reportLinks: {
    flag: 'report-links',
    values: ['wrapped', 'bare', 'link'],
    what: 'report links and the export webhook: {"Reports":[...]}, a bare array, or one {"link":...} (the delivery file)',
    source: 'spec 000 endpoint 17, decisions row 8; vendor reference and official CLI stub',
  },
  importCode: {
    flag: 'import-code',
    values: ['importSn', 'import_sn'],
    what: 'the import code field of import start, import status and the import webhook',
    source: 'spec 000 section 9, an earlier revision; decisions row 13',
  },
  campaignError: {
    flag: 'campaign-error',
    values: ['code', 'errorCode'],
    what: 'campaign refusals: {code, invalidFields} or {errorCode, message}',
    source: 'spec 000 section 7, decisions row 6',
  },
  smsFailure: {
    flag: 'sms-failure',
    values: ['always', 'when-any'],
    what: 'SMS send answer: `failure` always, or only when a recipient failed',
    source: 'decisions row 3',
  },
  webhookList: {
    flag: 'webhook-list',
    values: ['list', 'object', 'webhooks'],
    what: 'webhook listing: a list, one object when one email webhook is registered, or {"webhooks":[...]}',
    source: 'spec 001 section 4: not shown; official CLI stub',
  },
  webhookRefusal: {
    flag: 'webhook-refusal',
    values: ['messages', 'message'],
    what: 'email webhook registration 400: reasons under `messages` or `message`',
    source: 'spec 001 sections 4 and 7',
  },
  signatureHeader: {
    flag: 'signature-header',
    values: ['x-service-signature', 'x-surenotify-signature'],
    what: 'the header that carries a webhook signature',
    source: 'spec 001 section 5, decisions row 14',
  },
  eventField: {
    flag: 'event-field',
    values: ['event', 'eventType'],
    what: 'the event name field of a webhook payload',
    source: 'spec 001 section 6, decisions row 15',
  },
  // The official CLI's stubs (VENDOR.md, "Shapes only the official CLI's stubs show") and the
  // vendor's reference: documented variants the client reads through its declarations.
  groupsList: {
    flag: 'groups-list',
    values: ['array', 'groups'],
    what: 'group listing: an array, or {"groups":[...],"pageInfo":{...}}',
    source: 'spec 000 endpoint 2; official CLI stub',
  },
  importDone: {
    flag: 'import-done',
    values: ['COMPLETE', 'COMPLETED'],
    what: 'the status of a finished import (status answer and webhook)',
    source: 'spec 000 section 2; decisions row 29 (official CLI)',
  },
  contactsRemoved: {
    flag: 'contacts-removed',
    values: ['updated_count', 'removed'],
    what: 'contact removal: {"updated_count":n} or {"removed":n}',
    source: 'spec 000 endpoint 6; official CLI stub',
  },
  campaignStatus: {
    flag: 'campaign-status',
    values: ['array', 'object'],
    what: 'campaign status: an array of campaign objects, or the one object',
    source: 'spec 000 endpoint 13; official CLI stub',
  },
  finishedCampaigns: {
    flag: 'finished-campaigns',
    values: ['array', 'campaigns'],
    what: 'finished campaigns: an array, or {"campaigns":[...]}',
    source: 'spec 000 endpoint 14; official CLI stub',
  },
  templateList: {
    flag: 'template-list',
    values: ['object', 'array'],
    what: 'template listing: {capacity, templates} or a bare array of templates',
    source: 'spec 000 endpoint 18; official CLI stub',
  },
  templateHtml: {
    flag: 'template-html',
    values: ['template', 'html'],
    what: 'a template\'s html under "template" or "html"',
    source: 'spec 000 endpoint 19; official CLI stub',
  },
  automationAnswer: {
    flag: 'automation-answer',
    values: ['success-failure', 'triggered'],
    what: 'automation event: {success, failure}, or {"status":"triggered"} naming nobody',
    source: 'spec 000 endpoint 20; official CLI stub',
  },
  eventList: {
    flag: 'event-list',
    values: ['logs', 'events'],
    what: 'event lookups: {"logs":[...]}, or {"events":[...],"total":n} with id and timestamp',
    source: 'spec 001 section 4; official CLI stub',
  },
  webhookSet: {
    flag: 'webhook-set',
    values: ['success', 'echo'],
    what: 'webhook registration: {"success":true}, or the registration echoed',
    source: 'spec 001 section 4; official CLI stub',
  },
  deleteAnswer: {
    flag: 'delete-answer',
    values: ['success', 'no-body'],
    what: 'webhook and sender-domain deletion: {"success":true}, or 204 with no body',
    source: 'spec 001 section 4, vendor reference; official CLI stub',
  },
} as const;

type Table = typeof SHAPES;
export type ShapeName = keyof Table;
export type SandboxShapes = { -readonly [K in ShapeName]: Table[K]['values'][number] } & {
  /** Every 2xx JSON answer of both services wrapped as {"unexpected": …}: a shape no one documents. */
  unknown?: boolean;
};

/**
 * A choice per shape, or a preset: every spec shape, every second value ('alternate'), every
 * last value ('last': the third where a shape has three), or 'unknown' (see SandboxShapes).
 */
export type ShapesOption = Partial<SandboxShapes> | Preset;
const PRESETS = ['spec', 'alternate', 'last', 'unknown'] as const;
type Preset = (typeof PRESETS)[number];

const NAMES = Object.keys(SHAPES) as ShapeName[];
const pick = (i: (values: readonly string[]) => string) => Object.fromEntries(NAMES.map((n) => [n, i(SHAPES[n].values)])) as unknown as SandboxShapes;

export const SPEC_SHAPES: Readonly<SandboxShapes> = Object.freeze(pick((v) => v[0]));
export const ALTERNATE_SHAPES: Readonly<SandboxShapes> = Object.freeze(pick((v) => v[1]));
export const LAST_SHAPES: Readonly<SandboxShapes> = Object.freeze(pick((v) => v[v.length - 1]));

export function resolveShapes(o: ShapesOption | undefined): SandboxShapes {
  if (o === 'alternate') return { ...ALTERNATE_SHAPES };
  if (o === 'last') return { ...LAST_SHAPES };
  if (o === 'unknown') return { ...SPEC_SHAPES, unknown: true };
  if (o === undefined || o === 'spec') return { ...SPEC_SHAPES };
  return { ...SPEC_SHAPES, ...o };
}

/** The body the sandbox answers with: as the shapes say, or wrapped in a key nobody documents. */
export function wrapUnknown(shapes: SandboxShapes, json: unknown): unknown {
  return shapes.unknown ? { unexpected: json } : json;
}

/**
 * `--shape` values, each a preset (`alternate`, `last`, `spec`, `unknown`) or NAME=VALUE (NAME as
 * in the help, e.g. report-links=bare); later ones win. A string is the problem with the input.
 */
export function parseShapeArgs(args: string[]): SandboxShapes | string {
  let out: SandboxShapes = { ...SPEC_SHAPES };
  for (const raw of args) {
    const a = raw.trim();
    if ((PRESETS as readonly string[]).includes(a)) {
      out = resolveShapes(a as Preset);
      continue;
    }
    const [key, value, ...extra] = a.split('=');
    const name = NAMES.find((n) => SHAPES[n].flag === key || n === key);
    if (!name || value === undefined || extra.length) return `--shape "${raw}" is not NAME=VALUE with a known NAME (${NAMES.map((n) => SHAPES[n].flag).join(', ')}), nor one of ${PRESETS.map((p) => `"${p}"`).join(', ')}.`;
    const values = SHAPES[name].values as readonly string[];
    if (!values.includes(value)) return `--shape ${SHAPES[name].flag} takes ${values.slice(0, -1).join(', ')} or ${values.at(-1)}; got "${value}".`;
    (out as Record<ShapeName, string>)[name] = value;
  }
  return out;
}

/** Lines for `sandbox serve --help`: each shape, its values (default first) and its source. */
export function shapeHelp(): string[] {
  return NAMES.map((n) => {
    const s = SHAPES[n];
    return `  ${s.flag}=${s.values.join('|')}\n      ${s.what}\n      (${s.source})`;
  });
}

/** The alternates in use, as `--shape` would name them (report-links=bare). */
export function alternatesIn(shapes: SandboxShapes): string[] {
  return [...NAMES.filter((n) => shapes[n] !== SPEC_SHAPES[n]).map((n) => `${SHAPES[n].flag}=${shapes[n]}`), ...(shapes.unknown ? ['unknown'] : [])];
}

/** `o` with key `from` renamed to `to`, in the same position (JSON key order kept). */
export function renameKey<T extends object>(o: T, from: string, to: string): Record<string, unknown> {
  if (from === to) return o as Record<string, unknown>;
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k === from ? to : k, v]));
}

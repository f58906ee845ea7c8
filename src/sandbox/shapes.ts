// Response shapes the services may really use where the specs (or the public material behind
// docs/spec/decisions.md) show two. The sandbox answers with the spec's primary shape unless told
// otherwise; each alternate exists so the client's tolerant reading of it runs in a test
// (test/api-alternate-shapes.test.ts) and can be tried by hand (`mailctl sandbox serve --shape`).
// This table is the one declaration: the option type, the flag's values and its help come from it.
// The first value of each is the default; the routes that answer apply their own choice.

export const SHAPES = {
  reportLinks: {
    flag: 'report-links',
    values: ['wrapped', 'bare'],
    what: 'report links and the export webhook: {"Reports":[...]} or a bare array',
    source: 'spec 000 endpoint 17, decisions row 8',
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
    values: ['list', 'object'],
    what: 'email webhook listing: a list, or one object when one webhook is registered',
    source: 'spec 001 section 4: not shown',
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
} as const;

type Table = typeof SHAPES;
export type ShapeName = keyof Table;
export type SandboxShapes = { -readonly [K in ShapeName]: Table[K]['values'][number] };

/** A choice per shape, or one of two presets: every primary shape, every alternate. */
export type ShapesOption = Partial<SandboxShapes> | 'spec' | 'alternate';

const NAMES = Object.keys(SHAPES) as ShapeName[];
const pick = (i: 0 | 1) => Object.fromEntries(NAMES.map((n) => [n, SHAPES[n].values[i]])) as SandboxShapes;

export const SPEC_SHAPES: Readonly<SandboxShapes> = Object.freeze(pick(0));
export const ALTERNATE_SHAPES: Readonly<SandboxShapes> = Object.freeze(pick(1));

export function resolveShapes(o: ShapesOption | undefined): SandboxShapes {
  if (o === 'alternate') return { ...ALTERNATE_SHAPES };
  if (o === undefined || o === 'spec') return { ...SPEC_SHAPES };
  return { ...SPEC_SHAPES, ...o };
}

/**
 * `--shape` values, each `alternate`, `spec` or NAME=VALUE (NAME as in the help, e.g.
 * report-links=bare); later ones win. A string is the problem with the input.
 */
export function parseShapeArgs(args: string[]): SandboxShapes | string {
  let out = { ...SPEC_SHAPES };
  for (const raw of args) {
    const a = raw.trim();
    if (a === 'alternate' || a === 'spec') {
      out = resolveShapes(a);
      continue;
    }
    const [key, value, ...extra] = a.split('=');
    const name = NAMES.find((n) => SHAPES[n].flag === key || n === key);
    if (!name || value === undefined || extra.length) return `--shape "${raw}" is not NAME=VALUE with a known NAME (${NAMES.map((n) => SHAPES[n].flag).join(', ')}), nor "alternate" or "spec".`;
    const values = SHAPES[name].values as readonly string[];
    if (!values.includes(value)) return `--shape ${SHAPES[name].flag} takes ${values.join(' or ')}; got "${value}".`;
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
  return NAMES.filter((n) => shapes[n] !== SPEC_SHAPES[n]).map((n) => `${SHAPES[n].flag}=${shapes[n]}`);
}

/** `o` with key `from` renamed to `to`, in the same position (JSON key order kept). */
export function renameKey<T extends object>(o: T, from: string, to: string): Record<string, unknown> {
  if (from === to) return o as Record<string, unknown>;
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k === from ? to : k, v]));
}

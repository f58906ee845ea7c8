// How an answer is read: through its endpoint's declaration (./campaign.ts, ./notify.ts), one
// per endpoint, listing the shape the spec documents and each documented variant (the vendor's
// reference, the official CLI's stubs, the decisions rows), each with its source named. An answer
// in none of them is not guessed at: src/api/http.ts turns the reason found here into a
// BAD_RESPONSE naming the endpoint and what was missing or wrong where (decisions row 34).
//
// valibot declares the shapes: small (only the checks used are bundled, in the api chunk that
// loads with the first request) and quick to start, where zod would add some 50 KiB of parsing
// code to every request's start-up.
import * as v from 'valibot';
import { forTerminal } from '../../core/sanitize.js';

/** A schema that reads a body (anything JSON.parse gives, or undefined for none) into T. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Schema<T> = v.GenericSchema<any, T>;

/** One documented shape of an answer, and where it is documented. */
export interface Shape<T> {
  /** The spec section, the vendor reference's page, a decisions row, the official CLI's stub. */
  source: string;
  schema: Schema<T>;
}

/** One endpoint's answer: every shape it is documented in, the spec's first. */
export interface Answer<T> {
  /** The endpoint as its spec writes it: `GET /v1/contacts/lists`. */
  endpoint: string;
  readonly shapes: ReadonlyArray<Shape<T>>;
  /** Its body is never read: the status alone says what happened (a 204, or a body "not shown"). */
  unread?: true;
  /**
   * What a dry run reads in its place: the recorder answers nothing (src/api/recorder.ts), and a
   * command goes on with this (an empty list, no figures) to print what a real run would send.
   */
  dryRun?: () => T;
}

export const shape = <T>(source: string, schema: Schema<T>): Shape<T> => ({ source, schema });
/**
 * One endpoint's declaration. Its shapes are built when first read, not when the api chunk loads:
 * a command reads one or two of some forty endpoints, and building every schema at import was
 * ~3 ms of each command's start-up on Node 24 (issue 24.6). The declaration stays data.
 */
export const answer = <T>(endpoint: string, shapes: () => Shape<T>[]): Answer<T> => {
  let built: ReadonlyArray<Shape<T>> | undefined;
  return {
    endpoint,
    get shapes() {
      return (built ??= shapes());
    },
  };
};
/** The answer, with what a dry run reads in its place (its shapes still built on first use). */
export const inDryRun = <T>(a: Answer<T>, placeholder: () => T): Answer<T> => Object.assign(a, { dryRun: placeholder });
/** An endpoint whose answer body mailctl does not read, and why that is right. */
export const unread = (endpoint: string, source: string): Answer<undefined> => Object.assign(answer(endpoint, () => [shape(source, v.unknown() as Schema<undefined>)]), { unread: true as const });

export type Reading<T> = { ok: true; value: T } | { ok: false; what: string };

/**
 * The body read through the first of the answer's shapes that takes it; otherwise what is wrong
 * with it, told by the shape that came closest (the one whose first problem lies deepest: a list
 * with one bad item is told as that item, not as "not an object").
 */
export function readAs<T>(a: Answer<T>, body: unknown): Reading<T> {
  let best: { issue: v.BaseIssue<unknown>; depth: number } | undefined;
  for (const s of a.shapes) {
    const r = v.safeParse(s.schema, body, { abortEarly: true });
    if (r.success) return { ok: true, value: r.output as T };
    const issue = r.issues[0];
    // A key missing from an object is a fault of that object: it counts at the object's depth.
    const depth = (issue.path?.length ?? 0) - (missingKey(issue) ? 1 : 0);
    if (!best || depth > best.depth) best = { issue, depth };
  }
  return { ok: false, what: best ? describe(best.issue) : 'nothing mailctl can read' };
}

/** The path of keys to where the issue is, as `templates[0].name` (empty: the body itself). */
function pathText(keys: unknown[]): string {
  let out = '';
  for (const key of keys) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${forTerminal(String(key), 40)}`;
  return out;
}

/** Whether valibot reports a key its object requires but the answer left out. */
function missingKey(issue: v.BaseIssue<unknown>): boolean {
  return issue.kind === 'schema' && /object$/.test(issue.type) && issue.input === undefined && !!issue.path?.length;
}

/** What is wrong, in words a sentence can carry: `[3] has no "sn"`, `"email" is "lots", not a number`. */
function describe(issue: v.BaseIssue<unknown>): string {
  const keys = (issue.path ?? []).map((p) => (p as { key: unknown }).key);
  const named = (path: string) => (!path ? 'the answer' : path.startsWith('[') ? path : `"${path}"`);
  if (missingKey(issue)) {
    // What the object holds instead: a wrapper nobody documents shows by its keys.
    const holder = (issue.path!.at(-1) as { input: unknown }).input;
    return `${named(pathText(keys.slice(0, -1)))} has no "${forTerminal(String(keys.at(-1)), 40)}" (it is ${preview(holder)})`;
  }
  const where = named(pathText(keys));
  if (issue.input === undefined) return `${where} is missing, where ${issue.message} was expected`;
  return `${where} is ${preview(issue.input)}, not ${issue.message}`;
}

/** A short view of a value the service sent: never the whole of a long list or object. */
function preview(x: unknown): string {
  if (Array.isArray(x)) return `a list of ${x.length}`;
  if (x && typeof x === 'object') {
    const keys = Object.keys(x);
    return keys.length ? `an object with ${keys.slice(0, 4).map((k) => `"${forTerminal(k, 30)}"`).join(', ')}${keys.length > 4 ? ', …' : ''}` : 'an empty object';
  }
  return forTerminal(typeof x === 'string' ? JSON.stringify(x.slice(0, 80)) : String(x), 60);
}

// The pieces every declaration is made of. Each names what it expects in words, which the
// sentence above carries ("a "email" that is not a number").
export const text = () => v.string('text');
export const num = () => v.pipe(v.number('a number'), v.finite('a number'));
export const flag = () => v.boolean('true or false');
/** Optional and nullable: a field the spec shows but a service may leave out. */
export const maybe = <T>(s: Schema<T>) => v.optional(v.nullable(s));
export const list = <T>(item: Schema<T>) => v.array(item, 'a list');
export const obj = <E extends v.ObjectEntries>(entries: E) => v.looseObject(entries, 'an object');
/** A JSON object whose values are all text (a `failure` map of address → reason). */
export const textMap = () => v.record(v.string(), v.string('text'), 'an object of texts');
/** No body at all (a 204): what some endpoints answer instead of a document. */
export const noBody = () => v.undefined('no body');

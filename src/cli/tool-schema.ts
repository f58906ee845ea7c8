// A command's declaration (commander: its options, arguments, .choices() and the values
// src/run/offer.ts offers) read as the JSON Schema of a tool's arguments, and a tool call's
// arguments turned back into the argv that command parses. `mailctl mcp` serves its tools from
// this, so a flag is declared once, for the CLI and an agent alike: a property is named as the
// flag is spelt (`html-file` for --html-file, `no-links` for --no-links) or as the argument is
// (`code`, `codes`), and carries the declaration's own description.
import type { Argument, CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { collect } from '../core/collect.js';
import { offeredFor } from '../run/offer.js';

/** The part of JSON Schema the tools use. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  enum?: readonly string[];
  items?: JsonSchema;
  minItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
}

/** How a property becomes words of argv. */
type Shape =
  | 'flag' // --x: true adds it
  | 'value' // --x <v>: a string
  | 'maybe-value' // --x [v]: true alone, or a string
  | 'values' // repeatable --x <v>: a list, one --x each
  | 'argument' // <a> or [a]: a string
  | 'arguments'; // <a...>: a list

export interface ToolParam {
  /** The property's name: the flag without its dashes, or the argument's name. */
  key: string;
  shape: Shape;
  /** The flag (--html-file); undefined for a positional argument. */
  flag?: string;
  required: boolean;
  schema: JsonSchema;
}

/** The tool parameters of a command: its visible options (less `omit`, by long flag) and its arguments, in declaration order. */
export function paramsOf(cmd: CommandUnknownOpts, omit: ReadonlySet<string>): ToolParam[] {
  const params: ToolParam[] = [];
  for (const o of cmd.options) {
    if (o.hidden || !o.long || omit.has(o.long) || o.long === '--help') continue;
    params.push(optionParam(o));
  }
  for (const a of cmd.registeredArguments) params.push(argumentParam(a));
  const seen = new Set<string>();
  for (const p of params) {
    // A declaration that would give two parameters one name is a bug found when the tools are built.
    if (seen.has(p.key)) throw new Error(`${cmd.name()}: two parameters are named "${p.key}"`);
    seen.add(p.key);
  }
  return params;
}

function optionParam(o: Option): ToolParam {
  const key = o.long!.slice(2);
  const text = describe(o.description, o, o.argChoices);
  if (!o.required && !o.optional) return { key, shape: 'flag', flag: o.long, required: false, schema: { type: 'boolean', description: text } };
  const value: JsonSchema = o.argChoices ? { type: 'string', enum: o.argChoices } : { type: 'string' };
  if (o.parseArg === (collect as unknown) || o.variadic) {
    return { key, shape: 'values', flag: o.long, required: o.mandatory, schema: { type: 'array', items: value, description: `${text} (a list: the flag is repeatable)` } };
  }
  if (o.optional) return { key, shape: 'maybe-value', flag: o.long, required: o.mandatory, schema: { ...value, type: ['string', 'boolean'], description: `${text} (true: the flag without a value)` } };
  return { key, shape: 'value', flag: o.long, required: o.mandatory, schema: { ...value, description: text } };
}

function argumentParam(a: Argument): ToolParam {
  const key = a.name();
  const value: JsonSchema = a.argChoices ? { type: 'string', enum: a.argChoices } : { type: 'string' };
  const text = describe(a.description || key, a, a.argChoices);
  if (a.variadic) return { key, shape: 'arguments', required: a.required, schema: { type: 'array', items: value, ...(a.required ? { minItems: 1 } : {}), description: text } };
  return { key, shape: 'argument', required: a.required, schema: { ...value, description: text } };
}

/** The declaration's description, with the values completion offers when .choices() does not list them. */
function describe(text: string, target: Option | Argument, choices: readonly string[] | undefined): string {
  const offered = choices ? undefined : offeredFor(target, { flags: new Set(), args: [] });
  return offered?.values.length ? `${text} (${offered.list ? 'comma-separated, of' : 'one of'}: ${offered.values.join(', ')})` : text;
}

/** The arguments' object schema: every parameter, plus `extra` (the server's own, such as a confirmation). */
export function inputSchema(params: readonly ToolParam[], extra: Record<string, JsonSchema> = {}): JsonSchema {
  const required = params.filter((p) => p.required).map((p) => p.key);
  return {
    type: 'object',
    properties: { ...Object.fromEntries(params.map((p) => [p.key, p.schema])), ...extra },
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

/** The arguments as the command takes them, or one sentence naming what is wrong. */
export type Parsed = { ok: true; options: string[]; positionals: string[]; normal: Record<string, string | boolean | string[]> } | { ok: false; problem: string };

/**
 * A call's arguments checked against the parameters and turned into argv: options first, as
 * `--flag=value` (a value may start with a dash), then the positional arguments, in declaration
 * order (the caller puts them after `--`). `normal` is what the call asks for, with what is
 * the same as leaving it out (false, an empty list) left out: the form a plan is bound to.
 */
export function argvOf(params: readonly ToolParam[], given: Record<string, unknown>): Parsed {
  const byKey = new Map(params.map((p) => [p.key, p]));
  const unknown = Object.keys(given).filter((k) => !byKey.has(k));
  if (unknown.length) return { ok: false, problem: `No parameter named ${unknown.map((k) => `"${k}"`).join(', ')}; this tool takes ${params.map((p) => p.key).join(', ') || 'none'}.` };
  const options: string[] = [];
  const positionals: string[] = [];
  const normal: Record<string, string | boolean | string[]> = {};
  for (const p of params) {
    const v = given[p.key];
    if (v === undefined || v === null || v === false || (Array.isArray(v) && !v.length)) {
      if (p.required) return { ok: false, problem: `"${p.key}" is required: ${p.schema.description}.` };
      continue;
    }
    const wrong = typeProblem(p, v);
    if (wrong) return { ok: false, problem: wrong };
    normal[p.key] = v as string | boolean | string[];
    switch (p.shape) {
      case 'flag':
        options.push(p.flag!);
        break;
      case 'maybe-value':
        options.push(v === true ? p.flag! : `${p.flag}=${v as string}`);
        break;
      case 'value':
        options.push(`${p.flag}=${v as string}`);
        break;
      case 'values':
        for (const x of v as string[]) options.push(`${p.flag}=${x}`);
        break;
      case 'argument':
        positionals.push(v as string);
        break;
      case 'arguments':
        positionals.push(...(v as string[]));
        break;
    }
  }
  return { ok: true, options, positionals, normal };
}

function typeProblem(p: ToolParam, v: unknown): string | undefined {
  const isText = (x: unknown) => typeof x === 'string';
  const choices = p.schema.enum ?? p.schema.items?.enum;
  const inChoices = (x: string) => !choices || choices.includes(x);
  switch (p.shape) {
    case 'flag':
      return v === true ? undefined : `"${p.key}" takes true or false.`;
    case 'maybe-value':
      return v === true || (isText(v) && inChoices(v as string)) ? undefined : `"${p.key}" takes true or a text value.`;
    case 'value':
    case 'argument':
      if (!isText(v)) return `"${p.key}" takes a text value.`;
      return inChoices(v as string) ? undefined : `"${p.key}" takes one of ${choices!.join(', ')}.`;
    case 'values':
    case 'arguments':
      if (!Array.isArray(v) || !v.every(isText)) return `"${p.key}" takes a list of text values.`;
      return v.every(inChoices) ? undefined : `"${p.key}" takes values among ${choices!.join(', ')}.`;
  }
}

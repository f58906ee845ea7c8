// One tool call of `mailctl mcp`: the command run in-process through main() with --json and
// --no-input, its streams captured (stdin an empty stream: the server's own is the protocol's),
// under the server's profile, --sandbox, clock and tuning. A read runs once. A write without
// "confirm" runs as --dry-run over a recorder, and its plan gets a token (src/mcp/plan-tokens.ts);
// with the token it is recorded again, and when that recording is still the confirmed plan it
// runs for real, its API requests held to the plan (src/mcp/plan-guard.ts) — destructive ones
// with --yes, which the confirmation stands for.
import { Readable, Writable } from 'node:stream';
import { main } from '../main.js';
import type { Env, Tuning } from '../../src/run/context.js';
import type { Clock } from '../../src/core/clock.js';
import { argvOf } from '../../src/cli/tool-schema.js';
import { DryRunRecorder, type RecordedRequest } from '../../src/api/recorder.js';
import type { FetchLike } from '../../src/api/http.js';
import type { Redact } from '../../src/api/redact.js';
import { maskKey } from '../../src/config/settings.js';
import { ExitCode, UsageError, type ErrorCode } from '../../src/core/errors.js';
import { canonicalJson, PLAN_TTL_MS, type Plan, type PlanBook, type Refusal } from '../../src/mcp/plan-tokens.js';
import { planGuard } from '../../src/mcp/plan-guard.js';
import { fileDigests } from '../../src/mcp/file-digests.js';
import { CONFIRM, type Tool } from './catalog.js';

/** What every call of one server shares. */
export interface ServerRun {
  env: Env;
  clock: Clock;
  tuning: Tuning;
  /** Ends every call (Ctrl-C on the server). */
  signal: AbortSignal;
  /** Global flags each call carries: the server's --profile and --sandbox. */
  globals: string[];
  /** Masks every key the server knows in what a call returns (the commands already print none). */
  redact: Redact;
  book: PlanBook;
}

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent: Record<string, unknown>;
  isError: boolean;
}

interface Ran {
  exitCode: number;
  stdout: string;
  stderr: string;
}

type Parsed = Extract<ReturnType<typeof argvOf>, { ok: true }>;

export async function callTool(run: ServerRun, tool: Tool, given: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
  const { [CONFIRM]: confirm, ...args } = given;
  const parsed = argvOf(tool.params, tool.write ? args : given);
  if (!parsed.ok) return failure(run, 'USAGE', parsed.problem, `The tool's input schema lists what it takes (as does \`mailctl ${tool.path.join(' ')} --help\`). Nothing was sent.`);
  if (!tool.write) return resultOf(run, await runCommand(run, tool, parsed, { signal }));
  if (confirm === undefined || confirm === null) return plan(run, tool, parsed, signal);
  if (typeof confirm !== 'string') return failure(run, 'USAGE', `"${CONFIRM}" takes the token of a plan (text).`, `Call ${tool.name} without "${CONFIRM}" to get one. Nothing was sent.`);
  return apply(run, tool, parsed, confirm, signal);
}

/** The dry run, its recording and a token for it. */
async function plan(run: ServerRun, tool: Tool, parsed: Parsed, signal: AbortSignal): Promise<ToolResult> {
  const recorder = new DryRunRecorder(maskKey);
  const ran = await runCommand(run, tool, parsed, { signal, mode: '--dry-run', recorder });
  if (ran.exitCode !== 0) return resultOf(run, ran);
  return planResult(run, tool, parsed, ran, recorder, run.book.issue(tool.name, parsed.normal, await bound(parsed, recorder)));
}

/** What a token is bound to besides the tool and arguments: the recorded requests and the files the arguments name (src/mcp/file-digests.ts). */
async function bound(parsed: Parsed, recorder: DryRunRecorder): Promise<unknown> {
  return { requests: recorder.requests, files: await fileDigests(parsed.normal) };
}

async function apply(run: ServerRun, tool: Tool, parsed: Parsed, token: string, signal: AbortSignal): Promise<ToolResult> {
  const claim = run.book.claim(token, tool.name, parsed.normal);
  if (!claim.ok) return refusal(run, tool, claim.reason);
  // Recorded again: what the run would send now must still be what was confirmed.
  const recorder = new DryRunRecorder(maskKey);
  const again = await runCommand(run, tool, parsed, { signal, mode: '--dry-run', recorder });
  if (again.exitCode !== 0) return resultOf(run, again);
  const now = await bound(parsed, recorder);
  if (!run.book.holds(token, tool.name, parsed.normal, now)) {
    const fresh = run.book.issue(tool.name, parsed.normal, now);
    return planResult(run, tool, parsed, again, recorder, fresh, REFUSALS['plan-changed']);
  }
  // Path segments that are the call's own values may become codes (src/mcp/plan-guard.ts).
  const values = Object.values(parsed.normal).flat().filter((v): v is string => typeof v === 'string');
  const planned = recorder.requests;
  const ran = await runCommand(run, tool, parsed, {
    signal,
    mode: tool.destructive ? '--yes' : undefined,
    wrapApiFetch: (f) => planGuard(f, planned, values, { bodies: tool.exactBodies }),
  });
  return resultOf(run, ran);
}

async function runCommand(run: ServerRun, tool: Tool, parsed: Parsed, o: { signal: AbortSignal; mode?: '--dry-run' | '--yes'; recorder?: DryRunRecorder; wrapApiFetch?: (f: FetchLike) => FetchLike }): Promise<Ran> {
  const argv = [
    ...run.globals, ...tool.path, ...parsed.options, '--json', '--no-input', ...(o.mode ? [o.mode] : []),
    // After `--`, a value that starts with a dash is still an argument.
    ...(parsed.positionals.length ? ['--', ...parsed.positionals] : []),
  ];
  const out = captured();
  const err = captured();
  const exitCode = await main({
    argv, env: run.env,
    stdin: noStdin(), stdout: out.stream, stderr: err.stream,
    stdinTTY: false, stdoutTTY: false, stderrTTY: false,
    signal: AbortSignal.any([run.signal, o.signal]),
    clock: run.clock, tuning: run.tuning,
    recorder: o.recorder, wrapApiFetch: o.wrapApiFetch,
  });
  return { exitCode, stdout: out.text(), stderr: err.text() };
}

/**
 * A tool's standard input: the server's own is the protocol, so a command that would read it
 * (an argument "-") is told so in one sentence, exit 2, before anything is sent — not handed an
 * empty stream, which read as "the html content is empty".
 */
function noStdin(): Readable {
  return new Readable({
    read() {
      this.destroy(new UsageError('A tool cannot read standard input ("-"): the server\'s standard input is the protocol.', 'Give the path of a file instead.'));
    },
  });
}

function captured(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** The command's one JSON document, its exit code, and what it said on stderr. */
function resultOf(run: ServerRun, ran: Ran): ToolResult {
  const text = ran.stdout.trim();
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return failure(run, 'FAILED', `\`mailctl\` ended with exit code ${ran.exitCode} without printing its JSON document.`, 'This is a bug in mailctl; please report it.', { exitCode: ran.exitCode, messages: ran.stderr });
  }
  return finish(run, text, { exitCode: ran.exitCode, document }, ran.stderr, ran.exitCode !== 0);
}

function planResult(run: ServerRun, tool: Tool, parsed: Parsed, ran: Ran, recorder: DryRunRecorder, p: Plan, refused?: Said): ToolResult {
  const requests: RecordedRequest[] = recorder.requests;
  let document: unknown = null;
  try {
    document = withoutPlan(JSON.parse(ran.stdout), recorder);
  } catch {
    // The plan is the recording; a dry run's document only adds to it.
  }
  const body = {
    ...(refused ? { error: errorDoc('PLAN_REFUSED', refused.message, refused.hint, { reason: 'plan-changed' }) } : {}),
    plan: { tool: tool.name, token: p.token, expiresAt: p.expiresAt, requests, lookups: recorder.lookups },
    next: { tool: tool.name, arguments: { ...parsed.normal, [CONFIRM]: p.token } },
    document,
  };
  return finish(run, JSON.stringify(body, null, 2), { exitCode: refused ? ExitCode.USAGE : 0, ...body }, ran.stderr, !!refused);
}

/**
 * The dry run's document less the requests and lookups the plan already holds (a large send's
 * batches would otherwise come twice); what it adds (a forecast, an import's local check) stays.
 */
function withoutPlan(doc: unknown, recorder: DryRunRecorder): unknown {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return doc;
  const { requests, lookups, ...rest } = doc as Record<string, unknown>;
  const same = (a: unknown, b: unknown) => a === undefined || canonicalJson(a) === canonicalJson(b);
  return same(requests, recorder.requests) && same(lookups, recorder.lookups) ? rest : doc;
}

interface Said {
  message: string;
  hint: string;
}

const TTL = `${PLAN_TTL_MS / 60_000} minutes`;
const REFUSALS: Record<Refusal, Said> = {
  unknown: { message: 'This server issued no plan with that token (a plan is kept in memory only, and forgotten after a restart); nothing was sent.', hint: 'Call the tool without "confirm" to get a plan and its token.' },
  used: { message: 'That plan was already carried out with this token; nothing was sent again.', hint: 'To do it once more, call the tool without "confirm" for a new plan and token.' },
  expired: { message: `That plan's token is older than ${TTL}; nothing was sent.`, hint: 'Call the tool without "confirm" for a new plan and token, and confirm it within that time.' },
  'other-arguments': { message: 'That token is for a plan of other arguments (or another tool); nothing was sent.', hint: 'Confirm with exactly the arguments of the call that returned the token, or call without "confirm" for a plan of these.' },
  'plan-changed': { message: 'What a real run would send changed since the token was issued (a file, a setting or a key it reads); nothing was sent.', hint: 'The plan as it stands now is in "plan", with a new token: check it, then confirm that one.' },
};

function refusal(run: ServerRun, tool: Tool, reason: Refusal): ToolResult {
  const said = REFUSALS[reason];
  return failure(run, 'PLAN_REFUSED', said.message, said.hint.replace('the tool', tool.name), { reason });
}

function errorDoc(code: ErrorCode, message: string, hint: string, o: { reason?: Refusal; exitCode?: number } = {}): Record<string, unknown> {
  return { code, ...(o.reason ? { reason: o.reason } : {}), message, hint, exitCode: o.exitCode ?? (code === 'FAILED' ? ExitCode.FAILED : ExitCode.USAGE) };
}

/**
 * A refusal the server makes itself, shaped as main's: {"error": {code, message, hint, exitCode}},
 * with `reason` for a refused plan. `exitCode` and `messages` are those of a run, when one ended here.
 */
export function failure(run: ServerRun, code: ErrorCode, message: string, hint: string, o: { reason?: Refusal; exitCode?: number; messages?: string } = {}): ToolResult {
  const error = errorDoc(code, message, hint, o);
  return finish(run, JSON.stringify({ error }, null, 2), { exitCode: error.exitCode, document: { error } }, o.messages ?? '', true);
}

function finish(run: ServerRun, text: string, structured: Record<string, unknown>, stderr: string, isError: boolean): ToolResult {
  const messages = stderr.trim();
  const content = [{ type: 'text' as const, text }];
  if (messages) content.push({ type: 'text', text: `mailctl's messages (stderr):\n${messages}` });
  // Every key the server knows masked, as the commands already do: a last net, not the only one.
  return run.redact({ content, structuredContent: { ...structured, ...(messages ? { messages } : {}) }, isError });
}

// Starts the real sandbox on a free loopback port for a test file, and fails a test on any request
// it did not expect (as wrangler's and gh's HTTP mocks do): a command that starts calling an
// endpoint nobody meant it to call is caught, not silently answered.
//
//   const sb = useSandbox({ expect: ['GET /campaign/v1/balance', 'POST /notify/v1/messages'] });
//   it('…', async () => {
//     sb.expect('PUT /files/u/:token', { required: true }); // this test only; fails if never made
//     …
//   });
//
// An expectation is 'METHOD /service/path': the path as the sandbox serves it, with its service
// prefix (/campaign, /notify, /files, /links); `:name` or `*` stands for one path segment, a
// final `**` for the rest; the query is not compared; METHOD may be `*`. Every request the sandbox
// receives is checked after the test that was running (requests made in a beforeAll count towards
// the first test after it), including the non-API routes: /files uploads and downloads, /links,
// /campaign/_sandbox.
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startSandboxServer, type RunningSandbox, type ServeOptions } from '../../src/sandbox/server.js';
import type { Recorded } from '../../src/sandbox/types.js';
import { runCli, type CliResult } from './cli.js';

/** Test defaults: spec behaviour, with the per-second limit off and short processing times. */
export const TEST_SANDBOX: ServeOptions = {
  limits: { perSecond: false, exportEvery10s: false },
  delays: { importProcessing: 100, campaignPrepare: 100, campaignSending: 150, reportExport: 100, notifyEvents: 50 },
  tickMs: 25,
};

export interface UseSandboxOptions extends ServeOptions {
  /** Requests any test of this file (or describe block) may make. */
  expect?: string[];
}

export interface ExpectOptions {
  /** The test fails if no such request was made during it. */
  required?: boolean;
}

export interface SandboxHandle {
  get(): RunningSandbox;
  /** Allows these requests in the current test only (with `required`, demands them). */
  expect(patterns: string | string[], o?: ExpectOptions): void;
  /**
   * Checks the requests received since the last check (what afterEach does) and throws a list of
   * the unexpected ones and of required ones never made. The checked requests are not checked again.
   */
  verify(): void;
}

interface Expectation {
  pattern: string;
  method: string;
  segments: string[];
  required: boolean;
}

export function parseExpectation(pattern: string, required = false): Expectation {
  const m = /^([A-Z]+|\*) (\/\S*)$/.exec(pattern);
  if (!m) throw new Error(`sandbox expectation "${pattern}": write it as 'METHOD /service/path', e.g. 'GET /campaign/v1/balance'`);
  return { pattern, method: m[1], segments: m[2].split('/').slice(1), required };
}

/** The request's path as the sandbox serves it, service prefix included. */
export function fullPath(r: Pick<Recorded, 'service' | 'path'>): string {
  return `/${r.service}${r.path}`;
}

export function matches(e: Expectation, r: Pick<Recorded, 'service' | 'method' | 'path'>): boolean {
  if (e.method !== '*' && e.method !== r.method) return false;
  const got = fullPath(r).split('/').slice(1);
  for (let i = 0; i < e.segments.length; i++) {
    const want = e.segments[i];
    if (want === '**' && i === e.segments.length - 1) return got.length > i;
    if (i >= got.length) return false;
    if (want === '*' || want.startsWith(':')) {
      if (got[i] === '') return false;
    } else if (want !== got[i]) return false;
  }
  return got.length === e.segments.length;
}

/** What is wrong with `received` against `expected`: one line per problem; empty when all is well. */
export function requestProblems(received: Array<Pick<Recorded, 'service' | 'method' | 'path' | 'status'>>, expected: Expectation[]): string[] {
  const problems: string[] = [];
  for (const r of received) {
    if (!expected.some((e) => matches(e, r))) problems.push(`unexpected request: ${r.method} ${fullPath(r)} (service ${r.service}, answered ${r.status})`);
  }
  for (const e of expected) {
    if (e.required && !received.some((r) => matches(e, r))) problems.push(`expected request never made: ${e.pattern}`);
  }
  return problems;
}

/** The requests one sandbox received, checked against what the file (or describe) and the current test expect. */
class RequestCheck {
  private readonly allowed: Expectation[];
  private perTest: Expectation[] = [];
  private checked = 0;

  constructor(patterns: string[]) {
    this.allowed = patterns.map((p) => parseExpectation(p));
  }

  expect(patterns: string | string[], e: ExpectOptions = {}): void {
    for (const p of [patterns].flat()) this.perTest.push(parseExpectation(p, e.required));
  }

  verify(running: RunningSandbox | undefined): void {
    const expected = [...this.allowed, ...this.perTest];
    this.perTest = [];
    if (!running) return;
    const all = running.sandbox.recorded;
    const received = all.slice(this.checked);
    this.checked = all.length;
    const problems = requestProblems(received, expected);
    if (problems.length) {
      throw new Error(`${problems.join('\n')}\nIf the test means to make a request, add it to useSandbox({ expect }) / startTestSandbox({ expect }) or sb.expect(…).`);
    }
  }
}

export function useSandbox(o: UseSandboxOptions = {}): SandboxHandle {
  const { expect: fileExpect = [], ...serve } = o;
  const check = new RequestCheck(fileExpect);
  let running: RunningSandbox | undefined;
  beforeAll(async () => {
    running = await startSandbox(serve);
  });
  afterAll(async () => {
    await running?.close();
  });
  const handle: SandboxHandle = {
    get: () => {
      if (!running) throw new Error('sandbox not started');
      return running;
    },
    expect: (patterns, e) => check.expect(patterns, e),
    verify: () => check.verify(running),
  };
  afterEach(() => handle.verify());
  return handle;
}

/**
 * A sandbox of its own for one test (its own delays, limits or clock), checked like useSandbox's:
 * `close()` fails the test on any request it received that `expect` does not allow (and on a
 * required one never made), then stops it; `verify()` checks what came so far.
 */
export interface CheckedSandbox extends RunningSandbox {
  expect(patterns: string | string[], o?: ExpectOptions): void;
  verify(): void;
}

export async function startTestSandbox(o: UseSandboxOptions = {}): Promise<CheckedSandbox> {
  const { expect: allowed = [], ...serve } = o;
  const check = new RequestCheck(allowed);
  const running = await startSandbox(serve);
  const checked: CheckedSandbox = {
    ...running,
    expect: (patterns, e) => check.expect(patterns, e),
    verify: () => check.verify(running),
    close: async () => {
      try {
        check.verify(running);
      } finally {
        await running.close();
      }
    },
  };
  return checked;
}

/** The test defaults applied to a sandbox's options. */
function startSandbox(o: ServeOptions): Promise<RunningSandbox> {
  return startSandboxServer({ ...TEST_SANDBOX, ...o, limits: { ...TEST_SANDBOX.limits, ...o.limits }, delays: { ...TEST_SANDBOX.delays, ...o.delays } });
}

/**
 * Runs `argv` against `sb` and holds it to what every bad input promises: exit 2, and not one
 * request reached the sandbox. Returns the run for the checks of its sentence.
 */
export async function refusedBeforeSending(sb: SandboxHandle, argv: string[]): Promise<CliResult> {
  const before = sb.get().sandbox.requests().length;
  const r = await runCli(argv, { sandbox: sb.get() });
  expect(r.exitCode, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
  expect(sb.get().sandbox.requests().length, `${argv.join(' ')}: a request was sent`).toBe(before);
  return r;
}

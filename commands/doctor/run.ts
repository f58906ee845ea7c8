// `mailctl doctor`: what this run would use and whether it works — the profile and where each
// setting comes from, each key tried with one cheap authenticated read, the config folder's
// permissions, the clock against the service's Date header (scheduling depends on it), Node.
import fs from 'node:fs';
import type { Context } from '../../src/run/context.js';
import { CliError, ExitCode, SilentExit, factsOf } from '../../src/core/errors.js';
import { maskKey, SERVICE_LABEL, type Service } from '../../src/config/settings.js';
import { PRIVATE_DIR_MODE } from '../../src/fs/safe-write.js';
import { printList } from '../../src/run/output/format.js';
import type { HttpClient } from '../../src/api/http.js';
import { settingRows } from '../../src/config/sources.js';
import { suggestWithNote } from '../../src/core/suggest.js';

type Level = 'ok' | 'warn' | 'fail';
interface Check {
  check: string;
  status: Level;
  detail: string;
  /** The exit code this failure stands for (3 config/auth, 4 network, 1 an answer in no known shape). */
  exit?: number;
}

/** Clock differences the services would notice in a scheduled send time. */
const SKEW_WARN_MS = 30_000;
const MIN_NODE = [20, 17];

export async function run(ctx: Context): Promise<void> {
  // Before settings: reading them makes a too-open config folder private.
  const before = modeOf(ctx.configDir);
  const s = await ctx.settings();
  const checks: Check[] = [];
  // Every setting this run uses, with where it came from: a flag, the environment, the profile,
  // the built-in default or the sandbox. Keys are the key checks below.
  const settings = settingRows(s, ctx, { keys: false });
  for (const row of settings) checks.push({ check: row.setting, status: 'ok', detail: `${row.value} (${sourceWords(row.source, s.profileName)})` });
  if (s.sandbox) checks.push({ check: 'sandbox', status: 'ok', detail: `on (${ctx.globals.sandbox ? 'from --sandbox' : `profile "${s.profileName}"`}): the built-in sandbox answers instead of the real services` });
  checks.push(configDirCheck(ctx.configDir, before, ctx.env.MAILCTL_CONFIG_DIR ? 'from MAILCTL_CONFIG_DIR' : 'the default'));
  checks.push(nodeCheck());
  let skew: Check | undefined;
  for (const service of ['campaign', 'notify'] as Service[]) {
    const key = service === 'campaign' ? s.campaignKey : s.notifyKey;
    const url = service === 'campaign' ? s.campaignUrl : s.notifyUrl;
    const where = s.sandbox ? 'the built-in sandbox' : url;
    if (!key && !s.sandbox) {
      checks.push({ check: `${service} key`, status: 'fail', exit: ExitCode.AUTH, detail: `not set; set it with ${suggestWithNote(ctx, 'config', 'set-key', '--service', service)} or MAILCTL_${service === 'campaign' ? 'CAMPAIGN' : 'NOTIFY'}_API_KEY` });
      continue;
    }
    const result = await tryKey(ctx, service);
    const source = s.keySource[service] ?? (s.sandbox ? 'sandbox' : '');
    checks.push({ ...result.check, check: `${service} key`, detail: `${maskKey(key) || 'sandbox key'} from ${source} at ${where}: ${result.check.detail}` });
    if (!skew && result.http?.lastServerDate) skew = clockCheck(result.http.lastServerDate, SERVICE_LABEL[service]);
  }
  if (skew) checks.push(skew);

  const exit = checks.some((c) => c.exit === ExitCode.AUTH) ? ExitCode.AUTH : checks.some((c) => c.exit === ExitCode.LIMIT) ? ExitCode.LIMIT
    : checks.some((c) => c.exit === ExitCode.FAILED) ? ExitCode.FAILED : ExitCode.OK;
  await printList(ctx.io, checks, [
    { header: 'CHECK', value: (c) => c.check },
    { header: 'STATUS', value: (c) => c.status, paint: (c) => (c.status === 'ok' ? 'green' : c.status === 'warn' ? 'yellow' : 'red') },
    { header: 'DETAIL', value: (c) => c.detail },
  ], {
    ok: exit === ExitCode.OK, exitCode: exit, checks: checks.map(({ exit: _e, ...c }) => c),
    settings: Object.fromEntries(settings.map((r) => [r.setting, { value: r.value, source: r.source }])),
  });
  if (exit !== ExitCode.OK) throw new SilentExit(exit);
}

async function tryKey(ctx: Context, service: Service): Promise<{ check: Omit<Check, 'check'>; http?: HttpClient }> {
  let http: HttpClient | undefined;
  try {
    if (service === 'campaign') {
      const client = await ctx.campaign();
      http = client.http;
      await client.balance();
    } else {
      const client = await ctx.notify();
      http = client.http;
      await client.listWebhooks();
    }
    return { check: { status: 'ok', detail: 'accepted' }, http };
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    const f = factsOf(e);
    if (f.code === 'AUTH' || f.code === 'CONFIG') return { check: { status: 'fail', exit: ExitCode.AUTH, detail: 'refused (Forbidden): the key is wrong or belongs to another account' }, http };
    if (f.code === 'NETWORK' || f.code === 'TIMEOUT') return { check: { status: 'fail', exit: ExitCode.LIMIT, detail: `unreachable (${e.message})` }, http };
    if (f.code === 'RATE_LIMITED' || f.code === 'DAILY_LIMIT') return { check: { status: 'warn', detail: `accepted, but rate limited now (${e.message})` }, http };
    // Answered, but in no shape mailctl knows (decisions row 34): a service failure, not the network.
    if (f.code === 'BAD_RESPONSE') return { check: { status: 'fail', exit: ExitCode.FAILED, detail: `answered, but not as documented: ${e.message}` }, http };
    return { check: { status: 'fail', exit: ExitCode.LIMIT, detail: `answered with an error: ${e.message}` }, http };
  }
}

function modeOf(dir: string): number | undefined {
  try {
    return fs.statSync(dir).mode & 0o777;
  } catch {
    return undefined;
  }
}

/** A setting's source as a reader takes it: "from MAILCTL_CAMPAIGN_URL", "profile \"staging\"", "built-in default". */
function sourceWords(source: string, profile: string): string {
  if (source === 'default') return 'built-in default';
  if (source === 'sandbox') return 'the sandbox';
  if (source === 'profile') return `profile "${profile}"`;
  if (source === 'config use') return 'chosen with config use';
  return `from ${source}`;
}

function configDirCheck(dir: string, before: number | undefined, source: string): Check {
  const mode = modeOf(dir);
  if (mode === undefined) return { check: 'config folder', status: 'ok', detail: `${dir}, ${source} (not created yet; it will be made private, mode 700)` };
  if (mode & 0o077) {
    return { check: 'config folder', status: 'fail', exit: ExitCode.AUTH, detail: `${dir} is mode ${mode.toString(8)}: others can read keys and journals; fix with \`chmod ${PRIVATE_DIR_MODE.toString(8)} ${dir}\`` };
  }
  if (before !== undefined && before & 0o077) return { check: 'config folder', status: 'warn', detail: `${dir} was mode ${before.toString(8)}, open to other users; made private (mode ${mode.toString(8)})` };
  return { check: 'config folder', status: 'ok', detail: `${dir}, ${source} (mode ${mode.toString(8)})` };
}

function nodeCheck(): Check {
  const [major, minor] = process.versions.node.split('.').map(Number);
  const old = major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1]);
  if (old) return { check: 'node', status: 'fail', exit: ExitCode.AUTH, detail: `${process.version}: mailctl needs Node ${MIN_NODE.join('.')} or newer` };
  return { check: 'node', status: major < 22 ? 'warn' : 'ok', detail: major < 22 ? `${process.version} (supported; Node 20 is past its end of life: plan a move to 22 or 24)` : process.version };
}

function clockCheck(d: { date: string; receivedAt: number }, label: string): Check {
  const server = Date.parse(d.date);
  if (Number.isNaN(server)) return { check: 'clock', status: 'warn', detail: `the ${label} sent an unreadable Date header` };
  // The header has whole seconds: up to a second of difference is the header's own rounding.
  const skew = d.receivedAt - server;
  const secs = Math.round(skew / 1000);
  if (Math.abs(skew) < SKEW_WARN_MS) return { check: 'clock', status: 'ok', detail: `within ${Math.max(1, Math.abs(secs))} s of the ${label}` };
  return { check: 'clock', status: 'warn', detail: `this machine is ${Math.abs(secs)} s ${skew > 0 ? 'ahead of' : 'behind'} the ${label}: scheduled times and "in the past" checks will be off; sync the clock (NTP)` };
}

// What a send will draw from the account balance, checked before any send request (decisions
// row P8): email one unit per recipient, SMS the parts of each recipient's own text (decisions
// row P7: variables change the length, so each is counted filled in). Compared with the campaign
// service's balance (endpoint 21); a send the balance cannot cover is refused unless --ignore-balance,
// and a balance that cannot be read is a warning, never a reason not to send. A dry run shows
// the usage and the balance lookup, and reads nothing; `send … --forecast` reads the balance and
// nothing else, and says whether the send would be covered (forecastOnly).
import type { Context } from '../run/context.js';
import { CliError, ExitCode, ServiceError } from '../core/errors.js';
import { suggest } from '../core/suggest.js';
import { NOT_READ_IN_DRY_RUN, readBalance } from './balance.js';
import { smsSegments, type SmsEncoding } from '../spec/sms-segments.js';
import type { NewPlan, WireRecipient } from './journal.js';
import { render } from './variables.js';

export interface Forecast {
  channel: 'email' | 'sms';
  recipients: number;
  /** What the send draws from the balance: one per email, or SMS parts. */
  needed: number;
  /** SMS only: parts per message and how many messages go in each encoding. */
  sms?: { partsPerMessage: { min: number; max: number }; encodings: Record<SmsEncoding, number> };
  /** The balance of this channel, when it could be read. */
  balance: number | null;
  /** null when the balance could not be read. */
  covered: boolean | null;
  /** Why the balance was not compared. */
  notChecked?: string;
}

/** What sending `plan` to `wires` draws, before any balance is known. Automation has no forecast. */
export function usageOf(plan: NewPlan, wires: WireRecipient[]): Omit<Forecast, 'balance' | 'covered'> | undefined {
  if (plan.kind === 'email') return { channel: 'email', recipients: wires.length, needed: wires.length };
  if (plan.kind !== 'sms') return undefined;
  const content = String(plan.message.content ?? '');
  const encodings: Record<SmsEncoding, number> = { 'GSM-7': 0, 'UCS-2': 0 };
  let needed = 0;
  let min = Infinity;
  let max = 0;
  for (const w of wires) {
    const s = smsSegments(render(content, w.variables ?? {}));
    encodings[s.encoding]++;
    needed += s.parts;
    min = Math.min(min, s.parts);
    max = Math.max(max, s.parts);
  }
  return { channel: 'sms', recipients: wires.length, needed, sms: { partsPerMessage: { min: wires.length ? min : 0, max }, encodings } };
}

/** The usage against the balance (one balance request); undefined for kinds without a forecast. */
export async function forecast(ctx: Context, plan: NewPlan, wires: WireRecipient[]): Promise<Forecast | undefined> {
  const usage = usageOf(plan, wires);
  if (!usage || !wires.length) return undefined;
  const b = await readBalance(ctx, `the ${usage.channel === 'email' ? 'email' : 'SMS'} balance, for the forecast (not compared in a dry run)`);
  if (!b.ok) return { ...usage, balance: null, covered: null, notChecked: b.reason };
  const balance = b[usage.channel];
  if (balance === undefined) return { ...usage, balance: null, covered: null, notChecked: `the balance answer has no ${usage.channel} figure` };
  return { ...usage, balance, covered: usage.needed <= balance };
}

/** What the send uses, in words: "3 emails", or "3 SMS, 4 parts (GSM-7 and UCS-2, 1 to 2 parts each)". */
export function usageWords(f: Omit<Forecast, 'balance' | 'covered'>): string {
  const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  if (f.channel === 'email') return plural(f.recipients, 'email');
  const s = f.sms!;
  const enc = (['GSM-7', 'UCS-2'] as const).filter((e) => s.encodings[e]).join(' and ');
  const each = s.partsPerMessage.min === s.partsPerMessage.max ? `${plural(s.partsPerMessage.max, 'part')} each` : `${s.partsPerMessage.min} to ${s.partsPerMessage.max} parts each`;
  return `${plural(f.recipients, 'SMS', 'SMS')}, ${plural(f.needed, 'part')} (${enc}, ${each})`;
}

/**
 * Before a run sends anything: the forecast line (SMS always, email on dry runs or when it
 * matters), and a refusal when the balance cannot cover the run — exit 2, nothing was sent —
 * unless --ignore-balance. A dry run only reports.
 */
export async function checkForecast(ctx: Context, plan: NewPlan, wires: WireRecipient[], o: { ignoreBalance?: boolean; dryRun?: boolean; resume?: boolean; forecastCommand?: string }): Promise<Forecast | undefined> {
  const f = await forecast(ctx, plan, wires);
  if (!f) return undefined;
  const what = usageWords(f);
  if (f.covered === null && o.dryRun && f.notChecked === NOT_READ_IN_DRY_RUN) {
    const check = o.forecastCommand ? `to weigh it against the balance, reading only that and sending nothing: ${o.forecastCommand}` : `\`${suggest(ctx, 'balance')}\` shows it`;
    ctx.io.info(`Forecast: ${what}. The balance is not read in a dry run: a real run reads it first and refuses a send it cannot cover unless --ignore-balance (${check}).`);
    return f;
  }
  if (f.covered === null) {
    ctx.io.warn(`The balance could not be checked (${f.notChecked}); this ${o.dryRun ? 'send would go' : 'send goes'} on without a forecast check: ${what}.`);
    return f;
  }
  const label = f.channel === 'email' ? 'email' : 'SMS';
  const line = `Forecast: ${what}; ${label} balance ${f.balance}`;
  if (f.covered) {
    if (f.channel === 'sms' || o.dryRun) ctx.io.info(`${line}.`);
    return f;
  }
  const short = `${line}, ${f.needed - f.balance!} short.`;
  if (o.dryRun) {
    ctx.io.warn(`${short} ${o.ignoreBalance ? 'The real send would go anyway (--ignore-balance).' : 'The real send would be refused unless --ignore-balance.'}`);
    return f;
  }
  if (o.ignoreBalance) {
    ctx.io.warn(`${short} Sending anyway (--ignore-balance); the service may refuse what the balance cannot cover.`);
    return f;
  }
  throw notCovered(ctx, f, o.resume ? 'resume' : 'send', 'nothing was sent');
}

/** The refusal of a send (or resume) the balance cannot cover: exit 2, INSUFFICIENT_BALANCE. */
function notCovered(ctx: Context, f: Forecast, what: 'send' | 'resume', outcome: string): CliError {
  const label = f.channel === 'email' ? 'email' : 'SMS';
  const unit = f.channel === 'email' ? (f.needed === 1 ? 'email' : 'emails') : f.needed === 1 ? 'SMS part' : 'SMS parts';
  const fewer = f.channel === 'email' ? 'send to fewer recipients' : 'send to fewer recipients or shorten the text';
  return new CliError(
    `This ${what} needs ${f.needed} ${unit} and the ${label} balance is ${f.balance}; ${outcome}.`,
    ExitCode.USAGE,
    `Top up in the back office (check with \`${suggest(ctx, 'balance')}\`), ${fewer}, or pass --ignore-balance to send anyway.`,
    { code: 'INSUFFICIENT_BALANCE', reached: 'no', refused: false, retryable: false },
  );
}

/**
 * `send … --forecast`: the run's input checked as a send checks it, then one request — the
 * balance — and the whole forecast printed (stdout; --json: {forecast}); nothing sent, nothing
 * written. Exit 0 when covered; exit 2 INSUFFICIENT_BALANCE when not, unless --ignore-balance (a warning:
 * the send would go anyway). A balance that cannot be read fails the check with its own error
 * (exit 3 no key, 4 network, 1 refused): reading it is the point.
 */
export async function forecastOnly(ctx: Context, plan: NewPlan, wires: WireRecipient[], o: { ignoreBalance?: boolean; resume?: boolean }): Promise<void> {
  const usage = usageOf(plan, wires);
  if (!usage) return; // automation declares no --forecast
  const b = await readBalance(ctx, `the ${usage.channel === 'email' ? 'email' : 'SMS'} balance, for the forecast`);
  if (!b.ok) {
    if (b.error instanceof CliError) throw b.error;
    throw new ServiceError(`The balance could not be read (${b.reason}), so the forecast is not checked: ${usageWords(usage)}.`);
  }
  const balance = b[usage.channel];
  if (balance === undefined) throw new ServiceError(`The balance answer has no ${usage.channel} figure, so the forecast is not checked: ${usageWords(usage)}.`);
  const f: Forecast = { ...usage, balance, covered: usage.needed <= balance };
  const what = o.resume ? 'resume' : 'send';
  const refusal = f.covered || o.ignoreBalance ? undefined : notCovered(ctx, f, what, 'it would be refused, and nothing was sent');
  const label = f.channel === 'email' ? 'email' : 'SMS';
  if (ctx.io.json) {
    // One document: the forecast, and the refusal in the shape every error has (src/cli/main.ts).
    const { code } = refusal?.facts ?? {};
    ctx.io.printJson({ forecast: f, ...(refusal ? { error: { code, message: refusal.message, hint: refusal.hint, exitCode: refusal.exitCode } } : {}) });
  } else {
    const verdict = f.covered ? `covered, ${balance - f.needed} left after it` : `not covered, ${f.needed - balance} short`;
    ctx.io.out(`Forecast: ${usageWords(f)}; ${label} balance ${f.balance}: ${verdict}.`);
  }
  if (refusal) throw refusal;
  if (!f.covered) ctx.io.warn(`With --ignore-balance the ${what} would go anyway; the service may refuse what the balance cannot cover.`);
  else ctx.io.info(`Nothing was sent; drop --forecast to ${what}.`);
}

// What `send` (email) and `send sms` share: the batch flags, --var, reading text from a flag or
// a file, and the {{variable}} checks that stop a run before any request.
import { forTerminal } from '../../src/core/sanitize.js';
import fs from 'node:fs';
import type { Context } from '../../src/run/context.js';
import { UsageError } from '../../src/core/errors.js';
import { readAll } from '../../src/run/stdin.js';
import type { Recipient } from '../../src/send/recipients.js';
import { runBatchCommand, type BatchFlags } from '../../src/send/command.js';
import type { NewPlan } from '../../src/send/journal.js';
import { campaignSyntax, checkVariableNames, missingValues, placeholders, summarise } from '../../src/send/variables.js';
import { readTextFile } from '../../src/fs/read-text.js';

/** The shape of both send commands; `send --resume` takes email and SMS journals alike. */
export async function runSend<O extends BatchFlags>(ctx: Context, opts: O, messageFlags: Record<string, string>, buildPlan: (ctx: Context, opts: O) => Promise<NewPlan>, verb: string[]): Promise<void> {
  await runBatchCommand(ctx, opts, messageFlags, { kinds: ['email', 'sms'] }, buildPlan, undefined, verb);
}

/** Text from a flag, or from a file ("-" = stdin). Exactly one of the two. */
export async function textFrom(ctx: Context, inline: string | undefined, file: string | undefined, what: string, flags: [string, string]): Promise<string> {
  if (inline !== undefined && file !== undefined) throw new UsageError(`Give the ${what} either with ${flags[0]} or with ${flags[1]}, not both.`);
  if (inline === undefined && file === undefined) throw new UsageError(`No ${what}.`, `Give it with ${flags[0]} "…" or ${flags[1]} FILE ("-" reads standard input).`);
  let text: string;
  if (file !== undefined) {
    text = file === '-' ? await readAll(ctx.io.stdin, `${flags[1]} -`) : readTextFile(file, `${what} file`, flags[1]);
  } else {
    text = inline!;
    // "--html mail.html" sends the words "mail.html": almost certainly meant the file.
    if (!/[<\s{]/.test(text) && /\.\w{2,5}$/.test(text) && fs.existsSync(text)) {
      throw new UsageError(`${flags[0]} "${text}" looks like a file name, and its text would be sent as the ${what}.`, `To send the file's content, use ${flags[1]} ${text}.`);
    }
  }
  if (!text.trim()) throw new UsageError(`The ${what} is empty.`);
  return text;
}

/**
 * The checks of spec section 4 and decisions rows 18 and 26, before any request: placeholders that
 * are not names, recipients without a value for a placeholder, names (decisions row 26) and values
 * the service refuses (errors, nothing sent); expressions and the campaign service's ${FIELD}
 * syntax (warnings). A value is never judged by its first character: 123456 is a fine value.
 */
export function checkVariables(ctx: Context, texts: string[], recipients: Recipient[], allowMissing: boolean): void {
  const { names, invalid } = placeholders(...texts);
  if (invalid.length) {
    throw new UsageError(`The message uses ${invalid.join(', ')}, which ${invalid.length === 1 ? 'is not a valid variable' : 'are not valid variables'}.`, 'Variable names are letters, digits and _ only, not starting with a digit: {{code}}, {{first_name}}.');
  }
  const other = campaignSyntax(...texts);
  if (other.length) ctx.io.warn(`The message contains ${other.join(', ')} — that is the campaign service's syntax; this service fills {{name}} and will send ${other.length === 1 ? 'it' : 'them'} as written.`);

  const missing = missingValues(recipients, names);
  if (missing.length) {
    const list = summarise(missing, (m) => `${m.label} (${m.missing.join(', ')})`);
    const msg = `${missing.length === 1 ? '1 recipient has' : `${missing.length} recipients have`} no value for variables used in the message: ${list}.`;
    if (!allowMissing) throw new UsageError(`${msg} Nothing was sent.`, 'Add the values (a column per variable in --recipients-file, or --var name=value), or pass --allow-missing to send with those placeholders left as written.');
    ctx.io.warn(`${msg} Sending anyway (--allow-missing).`);
  }

  const p = checkVariableNames(recipients, 'the columns (or --var names)');
  if (p.tooLong.length) {
    throw new UsageError(`Variable values are limited to 100 characters and the service refuses longer ones: ${summarise(p.tooLong, (f) => `${f.label} ${f.name} (${[...f.value].length})`)}. Nothing was sent.`, 'Shorten those values and run the command again.');
  }
  if (p.expression.length) ctx.io.warn(`The spec forbids mathematical expressions in variable values; the service may refuse these: ${summarise(p.expression, (f) => `${forTerminal(f.label, 60)} ${forTerminal(f.name, 40)}="${forTerminal(f.value, 60)}"`)}.`);
}

/** Spec section 4 lists the recipient's `name` beside its variables; {{name}} is filled from it when no variable says otherwise. */
export function nameAsVariable(recipients: Recipient[], texts: string[]): void {
  if (!placeholders(...texts).names.includes('name')) return;
  for (const r of recipients) if (r.name && !Object.hasOwn(r.variables, 'name')) r.variables.name = r.name;
}

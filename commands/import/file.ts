// `mailctl import FILE --group G`: check the file locally (src/import/validate.ts), then send
// only the valid rows (text import below 100 rows, file import + PUT from 100 on, spec 000
// endpoints 3–4), then wait for the result (endpoint 5). Rejected rows go to a rejects file, so
// every row read is either uploaded or listed there. Working files live under the config
// directory (src/import/work-dir.ts) and go as soon as the upload is done; a dry run writes
// nothing unless --rejects names where its rejected rows should go, and shows the group lookup
// and import request a real run makes over the recording transport (src/api/recorder.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Context } from '../../src/run/context.js';
import { CliError, ExitCode, InterruptedError, ServiceError, UsageError } from '../../src/core/errors.js';
import { parseWhole } from '../../src/core/parse-whole.js';
import { parseDuration } from '../../src/core/duration.js';
import { parseFieldTypes } from '../../src/config/keys.js';
import type { ImportStarted } from '../../src/api/campaign-types.js';
import { recordUpload, uploadFile } from '../../src/run/transfer.js';
import { parseEncoding } from '../../src/import/encoding.js';
import { defaultRejectsPath } from '../../src/import/rejects.js';
import { ImportWorkDir } from '../../src/import/work-dir.js';
import { refuseSymlink } from '../../src/fs/safe-write.js';
import { forTerminal } from '../../src/core/sanitize.js';
import { plural } from '../../src/core/human.js';
import { DEFAULT_NAME_MAX_LENGTH, validateContacts, type ValidationResult } from '../../src/import/validate.js';
import { checkFailuresPath, defaultFailuresPath, localJson, localSummary } from '../../src/import/report.js';
import { DEFAULT_WAIT_TIMEOUT_MS, failuresFlags, fetchImport, waitForImport } from '../../src/import/wait.js';
import { printRecord } from '../../src/run/output/format.js';
import { printDryRun } from '../../src/run/output/dry-run.js';
import { resolveGroup } from '../../src/groups/find.js';
import { finishImport } from './finish.js';
import { keepPending } from './service-rejects.js';
import { fileProblem } from '../../src/core/file-problem.js';
import { sameCommand, suggest } from '../../src/core/suggest.js';
import { DiskError } from '../../src/fs/append-whole.js';
import { checkUrl } from '../../src/core/url.js';
import type { OptsOf, Verb } from '../../src/cli/declared.js';
import type { declareImport } from './index.js';

type Opts = OptsOf<typeof declareImport>;

/** Spec section 8: "file import recommended above 100 rows (text import below 100)". */
export const FILE_IMPORT_FROM_ROWS = 100;
/** Spec endpoint 4: "Payload at most 10 MB." */
export const TEXT_IMPORT_MAX_BYTES = 10 * 1024 * 1024;

export const run: Verb<typeof declareImport> = async (ctx, opts, file) => {
  const plan = await readOptions(ctx, opts, file);
  // A --timeout given bounds each API request of the import too, its answer read whole.
  if (opts.timeout !== undefined) ctx.limitRequestsTo(plan.timeoutMs);
  const stdin = file === '-';
  const source = stdin ? 'standard input' : file;
  const input = stdin ? (ctx.io.stdin as Readable) : await openInput(file);
  const sizeHint = stdin ? undefined : (await fs.promises.stat(file)).size;
  // A dry run touches no file it was not asked to write: no work folder (and so no cleanup of
  // what dead runs left), no cleaned copy; only the --rejects file it names, if a row is rejected.
  const work = plan.dryRun ? undefined : await ImportWorkDir.create(ctx.configDir).catch(nothingSentYet(ctx));
  try {
    const checked = await check(ctx, plan, input, source, work, sizeHint).catch(nothingSentYet(ctx));
    // None valid: a dry run ends as the real run would, exit 2 (its summary is already on stderr).
    if (!checked.valid) throw nothingValid(checked, source, plan.dryRun);
    if (plan.dryRun) return await dryRunReport(ctx, plan, checked, source);
    await upload(ctx, plan, checked, source, stdin ? undefined : file, work!);
  } finally {
    await work?.remove();
  }
};

/**
 * The local check could not write its copy or the rejects file (a full disk): nothing has been
 * sent, so the same command, once there is room, does the whole import.
 */
function nothingSentYet(ctx: Context): (e: unknown) => never {
  return (e) => {
    if (e instanceof DiskError && !e.hint) throw e.withHint(`Nothing was sent. ${e.fix}, then run the command again: ${sameCommand(ctx)}`);
    throw e;
  };
}

interface Plan {
  group: string;
  createGroup: boolean;
  rejectsPath: string;
  /** Rejected rows are written (always, but on a dry run only when --rejects names the file). */
  writeRejects: boolean;
  dryRun: boolean;
  strict: boolean;
  nameMaxLength: number;
  fieldTypes?: Record<string, 'string' | 'number' | 'date'>;
  encoding?: ReturnType<typeof parseEncoding>;
  wait: boolean;
  timeoutMs: number;
  webhookUrl?: string;
  failuresTo?: string;
  /** --force: replace a link at the rejects path, and what is at the failures path. */
  force: boolean;
}

async function readOptions(ctx: Context, opts: Opts, file: string): Promise<Plan> {
  if (!opts.group?.trim()) throw new UsageError('Say which group to import into with --group NAME_OR_CODE.', `List groups with \`${suggest(ctx, 'groups', 'list', '--all')}\`; add --create-group to create a new one.`);
  const profile = (await ctx.settings()).profile;
  let fieldTypes = profile.fieldTypes;
  if (opts.field?.length) {
    try {
      fieldTypes = { ...fieldTypes, ...parseFieldTypes(opts.field) };
    } catch (e) {
      throw new UsageError(`--field ${(e as Error).message}`, 'For example: --field AGE:number --field JOINED:date');
    }
  }
  const webhookUrl = opts.webhookUrl === undefined ? undefined : checkUrl(opts.webhookUrl, { name: '--webhook-url', example: 'https://hooks.example.com/import' });
  if (opts.wait === false && opts.downloadFailures !== undefined) {
    throw new UsageError('--download-failures needs the final result, so it cannot be used with --no-wait.', `Drop --no-wait, or fetch the file later with \`${suggest(ctx, 'import', 'status', 'IMPORT_SN', '--wait', '--download-failures')}\`.`);
  }
  const rejectsPath = opts.rejects ? path.resolve(opts.rejects) : defaultRejectsPath(file);
  if (file !== '-' && rejectsPath === path.resolve(file)) throw new UsageError('--rejects names the input file itself; choose another file for the rejected rows.');
  const writeRejects = !opts.dryRun || opts.rejects !== undefined;
  if (writeRejects) {
    // Rejected rows must have somewhere to go before any row is read.
    await fs.promises.access(path.dirname(rejectsPath), fs.constants.W_OK).catch(() => {
      throw new UsageError(`Cannot write the rejects file in ${path.dirname(rejectsPath)} (missing or not writable).`, 'Name a writable place for rejected rows with --rejects FILE.');
    });
    if (fs.statSync(rejectsPath, { throwIfNoEntry: false })?.isDirectory()) {
      throw new UsageError(`The rejects file ${rejectsPath} is a folder.`, 'Name a file for rejected rows with --rejects FILE.');
    }
    refuseSymlink(rejectsPath, opts.rejects ? '--rejects' : 'the rejects file', opts.force);
  }
  // The failure file's place, when known before anything is sent (named, or beside FILE): free
  // unless --force. `import -` names it after the service's code: checked when that is known.
  const failuresAt = typeof opts.downloadFailures === 'string' ? path.resolve(opts.downloadFailures) : opts.downloadFailures && file !== '-' ? defaultFailuresPath(file, '') : undefined;
  if (failuresAt) checkFailuresPath(failuresAt, opts.force);
  return {
    group: opts.group.trim(),
    createGroup: !!opts.createGroup,
    rejectsPath,
    writeRejects,
    dryRun: !!opts.dryRun,
    strict: !!opts.strict,
    nameMaxLength: opts.nameMaxLength !== undefined ? parseWhole(opts.nameMaxLength, '--name-max-length', 1) : profile.nameMaxLength ?? DEFAULT_NAME_MAX_LENGTH,
    fieldTypes,
    encoding: opts.encoding === undefined ? undefined : parseEncoding(opts.encoding),
    // Wait by default only when someone is watching; --download-failures implies waiting.
    wait: opts.wait ?? (opts.downloadFailures !== undefined || ctx.io.isTTY),
    timeoutMs: opts.timeout === undefined ? DEFAULT_WAIT_TIMEOUT_MS : parseDuration(opts.timeout, '--timeout', { positive: true }),
    webhookUrl: webhookUrl || undefined,
    failuresTo: opts.downloadFailures === undefined ? undefined : typeof opts.downloadFailures === 'string' ? opts.downloadFailures : 'default',
    force: !!opts.force,
  };
}

async function openInput(file: string): Promise<Readable> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch (e) {
    const hint = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'Check the path; use - to read the contacts from standard input.' : undefined;
    throw new UsageError(fileProblem(e, file, 'contacts file'), hint);
  }
  if (stat.isDirectory()) throw new UsageError(fileProblem(Object.assign(new Error(''), { code: 'EISDIR' }), file, 'contacts file'));
  await fs.promises.access(file, fs.constants.R_OK).catch((e: unknown) => {
    throw new UsageError(fileProblem(e, file, 'contacts file'));
  });
  return fs.createReadStream(file, { highWaterMark: 1 << 18 });
}

async function check(ctx: Context, plan: Plan, input: Readable, source: string, work: ImportWorkDir | undefined, sizeHint: number | undefined): Promise<ValidationResult> {
  const spin = await ctx.io.spinner(`Checking ${source}…`);
  let checked: ValidationResult;
  try {
    checked = await validateContacts({
      input, source, sizeHint,
      encoding: plan.encoding,
      nameMaxLength: plan.nameMaxLength,
      fieldTypes: plan.fieldTypes,
      cleanedPath: plan.dryRun ? undefined : work!.cleanedPath,
      // On a dry run the temporary rejects file is known only to this process (no work folder
      // lists it): an interruption removes it, and an out-of-date file at the target stays.
      rejects: plan.writeRejects ? { path: plan.rejectsPath, onTemp: work ? (tmp) => work.own(tmp) : undefined, keepOld: plan.dryRun } : undefined,
      signal: ctx.signal,
      onProgress: (rows) => spin.text(`Checking ${source}… ${plural(rows, 'row')}`),
    });
  } finally {
    spin.stop();
  }
  if (checked.encoding !== 'utf8' && !plan.encoding) ctx.io.info(`Read ${source} as ${checked.encoding === 'utf16le' ? 'UTF-16LE' : 'UTF-16BE'} (it starts with a byte-order mark).`);
  for (const w of checked.warnings) ctx.io.warn(w);
  for (const line of localSummary(checked, source)) ctx.io.info(line);
  if (checked.removedRejects) ctx.io.info(`  No row was rejected, so the rejects file of an earlier run is out of date and was removed: ${checked.removedRejects}`);
  if (checked.outOfDateRejects) ctx.io.info(`  No row was rejected; the rejects file of an earlier run is out of date (a real run removes it; the dry run left it): ${checked.outOfDateRejects}`);
  if (plan.strict && checked.rejected) {
    throw new UsageError(`${plural(checked.rejected, 'row was', 'rows were')} rejected, and --strict uploads nothing unless every row is valid.`, checked.rejectsPath ? `Fix the rows listed in ${checked.rejectsPath} and run again.` : 'A dry run writes no file: add --rejects FILE to list the rejected rows with their lines and reasons.');
  }
  // --strict means "refuse what would otherwise only be warned about" in every command (docs/flags.md).
  if (plan.strict && checked.warnings.length) {
    throw new UsageError(`--strict uploads nothing while the check warns (${plural(checked.warnings.length, 'warning')} above).`, 'Fix the file (a reserved column can be renamed or removed), or run without --strict to import with the warnings.');
  }
  return checked;
}

/**
 * Every row was rejected: nothing is sent (not even the group lookup) and the exit is 2, as for
 * --strict — the input is invalid and nothing was sent; the rejects file says why, row by row.
 */
function nothingValid(checked: ValidationResult, source: string, dryRun: boolean): UsageError {
  const what = checked.rejected === 1 ? `The only row of ${source} was rejected` : `All ${plural(checked.rejected, 'row')} of ${source} were rejected`;
  const sent = dryRun ? 'a real run would send nothing' : 'nothing was sent';
  let hint: string | undefined;
  if (checked.rejectsPath) hint = `Fix the rows listed with their reasons in ${checked.rejectsPath} and run again.`;
  else if (checked.rejected && dryRun) hint = 'A dry run writes no file: add --rejects FILE to list the rejected rows with their lines and reasons.';
  return new UsageError(checked.rejected ? `${what}, so ${sent}.` : `${source} has no rows to import, so ${sent}.`, hint);
}

/**
 * --dry-run: the local check's summary, then the requests a real run makes — the group lookup and
 * the import start (with the PUT of the rows for a file import) — built by the same client over
 * the recording transport, so nothing is sent and no key is needed. The rows are not copied
 * anywhere: the bodies name them by count and size. Only with valid rows (none: exit 2 before).
 */
async function dryRunReport(ctx: Context, plan: Plan, checked: ValidationResult, source: string): Promise<void> {
  // As upload() chooses; there the 10 MB limit is also checked on the JSON-escaped rows.
  const method = checked.valid < FILE_IMPORT_FROM_ROWS && !plan.webhookUrl && checked.cleanedBytes <= TEXT_IMPORT_MAX_BYTES ? 'text' : 'file';
  const how = method === 'text' ? 'text import (endpoint 4)' : 'file import (endpoint 3, then a PUT of the file)';
  const group = await resolveGroup(ctx, plan.group, { create: plan.createGroup, canCreate: true });
  if (plan.createGroup) ctx.io.info(`With --create-group a real run first creates group "${forTerminal(plan.group, 100)}" when no group has that name or code.`);
  const rows = `the ${plural(checked.valid, 'valid row')} of ${source} with the header line, ${checked.cleanedBytes} bytes; a dry run writes no copy`;
  const client = await ctx.campaign();
  if (method === 'text') {
    await client.startTextImport(group.sn, `(dry run: ${rows})`);
  } else {
    await client.startFileImport(group.sn, plan.webhookUrl);
    await recordUpload(ctx, '(the upload url in the answer)', { bytes: checked.cleanedBytes, what: rows });
  }
  const doc = {
    file: source,
    group: { given: plan.group, lookedUp: false },
    method,
    local: localJson(checked),
    rejectsPath: checked.rejectsPath ?? null,
    outOfDateRejects: checked.outOfDateRejects ?? null,
    warnings: checked.warnings,
  };
  if (ctx.io.json) return printDryRun(ctx, doc);
  await printRecord(ctx.io, [
    ['File', source],
    ['Encoding', checked.encoding],
    ['Rows read', checked.read, 'count'],
    ['Valid', checked.valid, 'count'],
    ['Rejected', checked.rejected, 'count'],
    ['Rejects file', checked.rejectsPath ?? (checked.rejected ? 'not written (a dry run writes no file; add --rejects FILE for one)' : 'none')],
    ['Would upload', `${checked.valid} row${checked.valid === 1 ? '' : 's'} by ${how} to group "${plan.group}"`],
  ], { dryRun: true, ...doc });
  await printDryRun(ctx); // --csv with --dry-run is refused before any command runs
}

async function upload(ctx: Context, plan: Plan, checked: ValidationResult, source: string, file: string | undefined, work: ImportWorkDir): Promise<void> {
  const group = await resolveGroup(ctx, plan.group, { create: plan.createGroup, canCreate: true });
  if (group.status === 'PROCESSING') {
    throw new CliError(
      `Group "${group.name}" (${group.sn}) is PROCESSING: another import into it is still running, and the spec says to let an import finish before using the group.`,
      ExitCode.FAILED,
      `Wait until \`${suggest(ctx, 'groups', 'list')}\` shows it GENERAL again, then run this import.`,
    );
  }
  const client = await ctx.campaign();
  const cleaned = checked.cleanedPath!;
  let method: 'text' | 'file' = checked.valid < FILE_IMPORT_FROM_ROWS ? 'text' : 'file';
  let contacts = '';
  if (method === 'text' && plan.webhookUrl) {
    method = 'file';
    ctx.io.info('Using the file import: only it accepts --webhook-url (the text import has no webhook).');
  }
  if (method === 'text' && checked.cleanedBytes <= TEXT_IMPORT_MAX_BYTES) {
    contacts = (await fs.promises.readFile(cleaned, 'utf8')).replace(/\n$/, '');
  }
  if (method === 'text' && (checked.cleanedBytes > TEXT_IMPORT_MAX_BYTES || Buffer.byteLength(JSON.stringify({ contacts })) > TEXT_IMPORT_MAX_BYTES)) {
    method = 'file';
    contacts = '';
    ctx.io.info('Using the file import: these rows are over the text import\'s 10 MB limit.');
  }

  let started: ImportStarted;
  try {
    started = method === 'text' ? await client.startTextImport(group.sn, contacts) : await client.startFileImport(group.sn, plan.webhookUrl);
  } catch (e) {
    // Spec section 7: "import start failure: 500, no content". Not retried: a second start could
    // create a second import.
    if (e instanceof ServiceError && e.status === 500) {
      throw new ServiceError(`The service could not start the import into group "${group.name}" (${group.sn}): HTTP 500 with no explanation.`, { status: 500, hint: `Check that the group still exists (\`${suggest(ctx, 'groups', 'list')}\`) and try again later.` });
    }
    throw e;
  }
  const sn = started.importSn;
  if (!sn) throw new ServiceError('The service started the import but returned no import code.', { hint: 'Check the group in the back office before importing again.' });
  const shown = forTerminal(sn, 80);

  if (method === 'file') {
    if (!started.url) throw new ServiceError(`The service started import ${shown} but gave no upload address.`, { hint: 'Try again; the import will end MISSING_REQUIRED_DATA on its own.' });
    await putCleaned(ctx, started.url, cleaned, shown);
  }
  // The service has the rows now: the copy goes before the (possibly long) wait.
  await work.remove();
  ctx.io.info(`Import ${shown} started: ${plural(checked.valid, 'row')} sent to group "${forTerminal(group.name, 80)}" (${forTerminal(group.sn, 80)}) by ${method} import.`);
  // The service numbers the rows it refuses by the lines of the upload: what maps them back to
  // this file's lines is kept until the import ends (here, or in a later `import status`).
  const keep = () => keepPending(ctx, { importSn: sn, source, rejectsPath: plan.rejectsPath, header: checked.header, lineMap: checked.lineMap });

  const finish = { source, local: checked, group, method };
  if (!plan.wait) {
    // One look at the status, so what is printed is what the service says, not a guess (taken
    // first: the status of the moment the import started, not after a write to disk).
    const result = await fetchImport(ctx, sn).catch(() => ({ importSn: sn, status: 'PROCESSING' }));
    return finishImport(ctx, { ...finish, result, brief: true, pending: await keep() });
  }
  const pending = await keep();
  // The resumed wait (`import status`) saves the failure file where this run would have: named
  // outright, since its default sits beside FILE (`import -` has the same default as status).
  const carry = failuresFlags(plan.failuresTo === 'default' ? (file === '-' ? '' : defaultFailuresPath(file, sn)) : plan.failuresTo, plan.force);
  const result = await waitForImport(ctx, sn, plan.timeoutMs, carry);
  const failuresTo = plan.failuresTo === 'default' ? defaultFailuresPath(file, sn) : plan.failuresTo;
  await finishImport(ctx, { ...finish, result, failuresTo, force: plan.force, pending });
}

async function putCleaned(ctx: Context, url: string, cleaned: string, sn: string): Promise<void> {
  try {
    await uploadFile(ctx, url, cleaned);
  } catch (e) {
    if (e instanceof InterruptedError) {
      throw new InterruptedError(`Interrupted during the upload of import ${sn}; the service did not get the whole file.`, 'Run the import again (the unfinished import ends MISSING_REQUIRED_DATA on its own).');
    }
    if (e instanceof CliError) {
      throw new CliError(`${e.message} Import ${sn} will not go ahead without its file.`, e.exitCode, e.hint, e.facts);
    }
    throw e;
  }
}


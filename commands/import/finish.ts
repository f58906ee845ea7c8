// The end of `import` and `import status`: print what happened, put the rows the service refused
// into the rejects file beside the local ones (./service-rejects.ts), save the failure file when
// asked, and pick the exit code: 0 every row imported · 1 the import failed as a whole · 5 it
// ran but some rows were rejected (locally or by the service).
import type { Context } from '../../src/run/context.js';
import { PartialError, ServiceError } from '../../src/core/errors.js';
import { IMPORT_TERMINAL, type ImportResult } from '../../src/api/campaign-types.js';
import type { ValidationResult } from '../../src/import/validate.js';
import type { Field } from '../../src/run/output/format.js';
import { downloadFailures, localJson, printResult, resultPairs, serviceRejected } from '../../src/import/report.js';
import { failureFor, statusWords } from '../../src/import/wait.js';
import type { ResolvedGroup } from '../../src/groups/find.js';
import { count, plural } from '../../src/core/human.js';
import { suggest, suggestWithNote } from '../../src/core/suggest.js';
import { forTerminal, forTsvCell } from '../../src/core/sanitize.js';
import type { PendingImport } from '../../src/import/pending.js';
import { forgetPending, mergeFromService, type Merged } from './service-rejects.js';

export interface Finish {
  result: ImportResult;
  source?: string;
  local?: ValidationResult;
  group?: ResolvedGroup;
  method?: 'text' | 'file';
  /** --download-failures: where to save the service's failure file. */
  failuresTo?: string;
  /** --force: the failure file may replace what is at failuresTo. */
  force?: boolean;
  /** Piped without waiting (`import --no-wait | …`): print just the import code. */
  brief?: boolean;
  /** Where the service's refused rows go when the import ends (the rejects file and the line map). */
  pending?: PendingImport;
}

export async function finishImport(ctx: Context, f: Finish): Promise<void> {
  const r = f.result;
  const ended = IMPORT_TERMINAL.has(r.status);
  const failed = ended && r.status !== 'COMPLETE';
  // A failed import that still links a failure file (ERROR may): saved as for COMPLETE, since it may say why.
  const failuresPath = (r.status === 'COMPLETE' || (failed && r.errorDownloadLink)) && f.failuresTo ? await downloadFailures(ctx, r, f.failuresTo, f.force) : undefined;
  // Done without saying how many went in: mailctl cannot say every row did (never "✓ Imported 0").
  if (r.status === 'COMPLETE' && r.insertCnt == null) {
    throw new ServiceError(`Import ${forTerminal(r.importSn, 80)} is COMPLETE, but the service's answer gives no count of the contacts it imported (insertCnt), so mailctl cannot say whether every row went in.`, {
      hint: `Look at the group's contact count (\`${suggest(ctx, 'groups', 'list')}\`), or ask again later: \`${suggest(ctx, 'import', 'status', r.importSn)}\`.`,
      facts: { code: 'BAD_RESPONSE' },
    });
  }
  const remote = ended ? serviceRejected(r) : 0;
  // Ended with rows the service refused (or failed, leaving a file that may say why): they join
  // the rejects file under the user's own line numbers. Ended clean: nothing is left to merge.
  let merged: Merged | undefined;
  if (ended && f.pending) {
    if (r.errorDownloadLink && (remote > 0 || failed)) merged = await mergeFromService(ctx, r, f.pending, failuresPath);
    else await forgetPending(ctx, r.importSn);
  }
  const rejectsPath = merged?.path ?? f.local?.rejectsPath;

  const pairs: Field[] = [];
  if (f.source) pairs.push(['File', f.source]);
  if (f.group) pairs.push(['Group', `${f.group.name} (${f.group.sn})`]);
  pairs.push(...resultPairs(r));
  if (!ended) pairs.splice(pairs.findIndex(([k]) => k === 'Rows in file'), 5);
  if (f.local) pairs.push(['Rejected locally', f.local.rejected, 'count']);
  if (rejectsPath) pairs.push(['Rejects file', rejectsPath]);
  if (failuresPath) pairs.push(['Failures saved to', failuresPath]);
  const json = {
    importSn: r.importSn,
    status: r.status,
    ...(f.group ? { group: { sn: f.group.sn, name: f.group.name, created: !!f.group.created } } : {}),
    ...(f.source ? { file: f.source } : {}),
    ...(f.method ? { method: f.method } : {}),
    ...(f.local ? { local: localJson(f.local), removedRejects: f.local.removedRejects ?? null, warnings: f.local.warnings } : {}),
    ...(f.local || merged ? { rejectsPath: rejectsPath ?? null } : {}),
    ...(f.pending && ended ? { serviceRejects: merged ? { merged: merged.merged, unmapped: merged.unmapped } : null } : {}),
    result: r,
    ...(failuresPath ? { failuresPath } : {}),
  };
  // Piped without waiting: the code alone, for the next command (TSV is what a pipe gets by
  // default), as one TSV cell: the service's word, whole, with its control characters escaped.
  // Also when the import happened to end before the one status look: what a script reads must
  // not change shape with how fast the service was (the status still decides the exit code).
  if (f.brief && ctx.io.output === 'tsv') ctx.io.out(forTsvCell(r.importSn));
  else await printResult(ctx, pairs, json);

  if (failed) throw failureFor(r, failuresPath, r.errorDownloadLink ? suggest(ctx, 'import', 'status', r.importSn, '--download-failures', 'FILE') : undefined, merged?.path);
  // The next command, one line on stderr for a person (not under --json; -q silences it).
  if (!ended) {
    if (!ctx.io.json) ctx.io.info(`Import ${forTerminal(r.importSn, 80)} is ${forTerminal(statusWords(r.status), 80)}. Follow it with: ${suggestWithNote(ctx, 'import', 'status', r.importSn, '--wait')}`);
  }
  const local = f.local?.rejected ?? 0;
  if (local || remote) {
    // Where each refused row is: the one rejects file when the service's rows joined it.
    const listed = merged || !remote ? `; each is in ${rejectsPath} with its line and reason` : '';
    const parts = [
      local ? `${count(local)} rejected locally${listed ? '' : ` (see ${f.local!.rejectsPath})`}` : '',
      remote ? `${count(remote)} refused by the service${!merged && r.errorDownloadLink && !failuresPath ? ' (--download-failures saves its list)' : ''}` : '',
    ].filter(Boolean);
    throw new PartialError(`Not every row was imported: ${parts.join('; ')}${listed}.`);
  }
  if (ended && !ctx.io.json) ctx.io.info(doneLine(ctx, r, f.group));
}

/** Every row imported: what happened, and the natural next step (a campaign to the group). */
function doneLine(ctx: Context, r: ImportResult, group: ResolvedGroup | undefined): string {
  const mark = ctx.io.paint('green', '✓');
  const into = group ? ` into group "${forTerminal(group.name, 80)}" (${forTerminal(group.sn, 60)})` : '';
  const next = ctx.io.canPrompt
    ? suggest(ctx, 'campaign', 'create', '--wizard', ...(group ? ['--group', group.sn] : []))
    // No one to answer the wizard (a script, a pipe, --no-input): the campaign as flags to fill in.
    : suggest(ctx, 'campaign', 'create', '--group', group?.sn ?? 'GROUP', '--name', 'NAME', '--subject', 'SUBJECT', '--html-file', 'FILE');
  return `${mark} Imported ${plural(r.insertCnt ?? 0, 'contact')}${into}. Next: send them a campaign with ${next}`;
}

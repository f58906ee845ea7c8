// Endpoints 3 (file import), 4 (text import), 5 (import result), and how imports move:
//   file import: UPLOADING ─PUT to url─▶ PROCESSING ─parsed and delays.importProcessing passed─▶ terminal
//   text import:                        PROCESSING ─…─▶ terminal
// Terminal statuses: COMPLETE, DUPLICATE_HEADER, ERROR, MISSING_REQUIRED_DATA (import-csv.ts).
// Decisions where the spec is silent:
//   - An upload address stays valid for UPLOAD_TTL_MS (1 hour, like a pre-signed URL). An import
//     whose file never arrives in that time ends MISSING_REQUIRED_DATA ("required file missing");
//     until then it stays UPLOADING, which is not terminal.
//   - A second PUT to the same address after the first is accepted and ignored.
//   - Importing into a group that is already PROCESSING is allowed; it stays PROCESSING while any
//     of its imports runs. Contacts and group counts change only when an import COMPLETEs.
//   - Endpoint 5 for an unknown code or one older than 30 days: 400 {"message": "..."}.
//   - Endpoint 4 over 10 MB: 413 {"message":"Request Too Long"} (the gateway's answer to an
//     oversized payload), before anything else is looked at. Missing `contacts` or an unknown
//     group on 3/4: "500: no content", the spec's import start failure.
//   - The webhook (endpoint 3 `webhookUrl`) is POSTed when the import ends, whatever the status,
//     with the body of endpoint 5. Endpoint 4 documents no webhookUrl, so none is called there.
//   - With the shape importCode 'import_sn' (spec section 9: the earlier revision's name "in
//     responses and in the status path"), endpoints 3, 4, 5 and the webhook name the code
//     import_sn. The status path is the same URL either way: only its placeholder was named so.
import fs from 'node:fs';
import path from 'node:path';
import type { ImportResult } from './types.js';
import type { Route, SbContext, SbResponse, UploadTarget } from '../types.js';
import { renameKey, type SandboxShapes } from '../shapes.js';
import { IMPORT_START_FAILED, isObj, iso } from './common.js';
import { MAX_STORED_CONTACTS, applyUpserts, findGroup, recountGroups } from './contacts.js';
import { refreshGroupStatuses } from './groups.js';
import { processImportFile, type ImportOutcome } from './import-csv.js';
import { finished, forgetJob, runJob } from './jobs.js';
import type { SbImport } from './state.js';

export const TEXT_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const UPLOAD_TTL_MS = 60 * 60 * 1000;
export const IMPORT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** The import object of spec section 2 (endpoint 5 body and the webhook body). */
export function importView(i: SbImport): ImportResult {
  const v: ImportResult = {
    importSn: i.importSn, status: i.status, fileCnt: i.fileCnt, insertCnt: i.insertCnt, duplicateCnt: i.duplicateCnt,
    errCnt: i.errCnt, createDate: i.createDate,
  };
  if (i.completedDate) v.completedDate = i.completedDate;
  if (i.errorDownloadLink) v.errorDownloadLink = i.errorDownloadLink;
  return v;
}

/**
 * A body that carries the import code, under the name the shapes choose; a finished import's
 * status as the shapes spell it (import-done=COMPLETED, decisions row 29).
 */
function withImportCode<T extends { importSn: string; status?: string }>(body: T, shapes: SandboxShapes): Record<string, unknown> {
  const spelled = body.status === 'COMPLETE' ? { ...body, status: shapes.importDone } : body;
  return renameKey(spelled, 'importSn', shapes.importCode);
}

function newImport(ctx: SbContext, listSn: string, source: SbImport['source']): SbImport {
  return {
    importSn: ctx.newId('IM'), listSn, source, status: source === 'file' ? 'UPLOADING' : 'PROCESSING', createdAt: ctx.now,
    createDate: iso(ctx.now), fileCnt: 0, insertCnt: 0, duplicateCnt: 0, errCnt: 0,
  };
}

const dataFile = (sn: string) => `import-${sn}.csv`;

export const importRoutes: Route[] = [
  {
    // 3. POST /v1/contacts/imports/{list_sn}/file → 200 {importSn, url}; then PUT the file to url.
    service: 'campaign', method: 'POST', path: '/v1/contacts/imports/:listSn/file',
    handler: async (req, ctx, p) => {
      const body = await req.json();
      if (!findGroup(ctx.state.campaign, p.listSn)) return IMPORT_START_FAILED;
      const imp = newImport(ctx, p.listSn, 'file');
      if (isObj(body) && typeof body.webhookUrl === 'string' && body.webhookUrl) imp.webhookUrl = body.webhookUrl;
      const url = ctx.uploadUrl('import', imp.importSn);
      imp.uploadToken = url.slice(url.lastIndexOf('/') + 1);
      ctx.state.campaign.imports.push(imp);
      return { status: 200, json: withImportCode({ importSn: imp.importSn, url }, ctx.opts.shapes) };
    },
  },
  {
    // 4. POST /v1/contacts/imports/{list_sn}/text, body {contacts}: "Payload at most 10 MB."
    service: 'campaign', method: 'POST', path: '/v1/contacts/imports/:listSn/text',
    handler: async (req, ctx, p): Promise<SbResponse> => {
      if ((await req.body()).length > TEXT_IMPORT_MAX_BYTES) return { status: 413, json: { message: 'Request Too Long' } };
      const body = await req.json();
      if (!findGroup(ctx.state.campaign, p.listSn)) return IMPORT_START_FAILED;
      if (!isObj(body) || typeof body.contacts !== 'string') return IMPORT_START_FAILED;
      const imp = newImport(ctx, p.listSn, 'text');
      imp.file = dataFile(imp.importSn);
      fs.writeFileSync(ctx.filePath(imp.file), body.contacts);
      imp.processingSince = ctx.now;
      ctx.state.campaign.imports.push(imp);
      refreshGroupStatuses(ctx.state.campaign);
      return { status: 200, json: withImportCode({ importSn: imp.importSn }, ctx.opts.shapes) };
    },
  },
  {
    // 5. GET /v1/contacts/imports/result/{importSn}: "Only imports of the last 30 days can be queried."
    service: 'campaign', method: 'GET', path: '/v1/contacts/imports/result/:importSn',
    handler: (_req, ctx, p) => {
      const imp = ctx.state.campaign.imports.find((i) => i.importSn === p.importSn);
      if (!imp || ctx.now - imp.createdAt > IMPORT_RETENTION_MS) {
        return { status: 400, json: { message: `No import ${p.importSn} in the last 30 days` } };
      }
      return { status: 200, json: withImportCode(importView(imp), ctx.opts.shapes) };
    },
  },
];

/** The file arrived at an import's upload address. */
export function importUploaded(ctx: SbContext, target: UploadTarget): void {
  const imp = ctx.state.campaign.imports.find((i) => i.importSn === target.ref);
  if (!target.file) return;
  if (!imp || imp.status !== 'UPLOADING') {
    fs.rmSync(ctx.filePath(target.file), { force: true });
    return;
  }
  // Keep the file under the import's own name, so a later PUT to the same URL cannot change it.
  imp.file = dataFile(imp.importSn);
  fs.renameSync(ctx.filePath(target.file), ctx.filePath(imp.file));
  target.file = imp.file;
  imp.status = 'PROCESSING';
  imp.processingSince = ctx.now;
  refreshGroupStatuses(ctx.state.campaign);
}

export async function advanceImports(ctx: SbContext): Promise<void> {
  const st = ctx.state.campaign;
  for (const imp of st.imports) {
    if (imp.status === 'UPLOADING' && ctx.now - imp.createdAt >= UPLOAD_TTL_MS) {
      if (imp.uploadToken) delete ctx.state.uploads[imp.uploadToken];
      const reason = 'the file was never uploaded to the upload address';
      finish(ctx, imp, { status: 'MISSING_REQUIRED_DATA', reason, fileCnt: 0, insertCnt: 0, duplicateCnt: 0, errCnt: 0, upserts: [], uncollected: 0 });
      continue;
    }
    if (imp.status !== 'PROCESSING' || !imp.file) continue;
    const file = ctx.filePath(imp.file);
    const failureFile = ctx.filePath(`import-${imp.importSn}-failures.csv`);
    const fields = structuredClone(st.fields);
    const id = `import:${imp.importSn}`;
    const work = () => processImportFile({ file, failureFile, fields, isStored: (k) => k in st.contacts, collectLimit: MAX_STORED_CONTACTS });
    // Not due yet: the parse may start (or go on) in the background. Due: this request waits for it.
    if (ctx.now < (imp.processingSince ?? 0) + ctx.opts.delays.importProcessing) {
      runJob(st, id, work);
      continue;
    }
    const job = await finished<ImportOutcome>(st, id, work);
    forgetJob(st, id);
    const outcome: ImportOutcome = job.result ?? {
      status: 'ERROR', reason: `the file could not be read: ${job.error?.message}`, fileCnt: 0, insertCnt: 0, duplicateCnt: 0, errCnt: 0, upserts: [], uncollected: 0,
    };
    fs.rmSync(file, { force: true });
    finish(ctx, imp, outcome);
  }
  // Spec: "Only imports of the last 30 days can be queried": older ones are forgotten.
  st.imports = st.imports.filter((i) => ctx.now - i.createdAt <= IMPORT_RETENTION_MS);
  refreshGroupStatuses(st);
}

function finish(ctx: SbContext, imp: SbImport, o: ImportOutcome): void {
  const st = ctx.state.campaign;
  Object.assign(imp, { status: o.status, fileCnt: o.fileCnt, insertCnt: o.insertCnt, duplicateCnt: o.duplicateCnt, errCnt: o.errCnt, completedDate: iso(ctx.now) });
  if (o.reason) imp.reason = o.reason;
  delete imp.file;
  if (o.failureFile) {
    imp.errorDownloadLink = ctx.publishStoredFile(path.basename(o.failureFile), `import-${imp.importSn}-failures.csv`);
  }
  if (o.status === 'COMPLETE' && findGroup(st, imp.listSn)) {
    applyUpserts(st, imp.listSn, o.upserts, o.uncollected, ctx.now);
    recountGroups(st, ctx.now, [imp.listSn]);
  }
  if (imp.webhookUrl) ctx.queueWebhook({ url: imp.webhookUrl, body: withImportCode(importView(imp), ctx.opts.shapes), dueAt: ctx.now });
}

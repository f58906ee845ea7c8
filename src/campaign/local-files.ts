// The files a campaign draft names — html bodies and a one-time list — read and checked before
// any request. Problems come back as sentences so they join the other local checks.
import fs from 'node:fs';
import { parse as parseCsv } from 'csv-parse/sync';
import { checkHeader } from '../import/header.js';
import type { Draft } from './draft.js';
import { fileProblem } from '../core/file-problem.js';
import { UsageError } from '../core/errors.js';
import { decodeUtf8, fileOrigin } from '../core/utf8.js';

/**
 * A file that cannot be read joins the other local problems; one that is not UTF-8 stops the run
 * here (exit 2, its offset named) in create, preflight, proof and preview alike, since no check
 * and no page can be made of html that cannot be read.
 */
function readText(file: string, flag: string, problems: string[]): string | undefined {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    problems.push(fileProblem(e, file, 'html file', flag));
    return undefined;
  }
  const text = decodeUtf8(buf, fileOrigin(file, 'html file', flag));
  if (!text.trim()) problems.push(`The html file ${file} (${flag}) is empty.`);
  return text;
}

/** A usage error as one of the local checks' sentences, its fix included. */
function problemOf(e: unknown): string {
  if (!(e instanceof UsageError)) throw e;
  return e.hint ? `${e.message} ${e.hint}` : e.message;
}

/** Reads --html-file / --html-file-a / --html-file-b into the draft's html fields. */
export function loadHtmlFiles(d: Draft, problems: string[]): Draft {
  const out = { ...d };
  if (d.htmlFile !== undefined) {
    if (d.html !== undefined) problems.push('Give the html content once: --html or --html-file, not both.');
    else out.html = readText(d.htmlFile, '--html-file', problems);
  }
  if (d.htmlFileA !== undefined) out.htmlA = readText(d.htmlFileA, '--html-file-a', problems);
  if (d.htmlFileB !== undefined) out.htmlB = readText(d.htmlFileB, '--html-file-b', problems);
  return out;
}

/**
 * A one-time list goes to the service unchecked ("not validated for format or duplicates",
 * spec section 1), so at least its header is checked here: the import format of section 2.
 */
export function checkListFile(file: string, problems: string[]): { bytes: number } | undefined {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    problems.push(fileProblem(e, file, 'list file', '--recipients-file'));
    return undefined;
  }
  let text: string;
  try {
    // The list goes to the service byte for byte: text that is not UTF-8 would arrive changed.
    text = decodeUtf8(buf, fileOrigin(file, 'list file', '--recipients-file', true));
  } catch (e) {
    problems.push(problemOf(e));
    return undefined;
  }
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  if (lines.length < 2) {
    problems.push(`The list file ${file} has no contacts: it needs the header line EMAIL,NAME and at least one contact below it.`);
    return undefined;
  }
  try {
    const [header] = parseCsv(lines[0], { relax_column_count: true }) as string[][];
    checkHeader(header ?? [], `the list file ${file}`);
  } catch (e) {
    const msg = (e as Error).message;
    problems.push(msg.charAt(0).toUpperCase() + msg.slice(1));
    return undefined;
  }
  return { bytes: buf.length };
}

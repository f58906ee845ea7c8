// The files a campaign draft names — html bodies and a one-time list — read and checked before
// any request. Problems come back as sentences so they join the other local checks.
import fs from 'node:fs';
import { parse as parseCsv } from 'csv-parse/sync';
import { checkHeader } from '../import/header.js';
import type { Draft } from './draft.js';
import { fileProblem } from '../core/file-problem.js';

function readText(file: string, flag: string, problems: string[]): string | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    if (!text.trim()) problems.push(`The html file ${file} (${flag}) is empty.`);
    return text;
  } catch (e) {
    problems.push(fileProblem(e, file, 'html file', flag));
    return undefined;
  }
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
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
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

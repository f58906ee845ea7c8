// The one place an API error becomes the words a person reads. src/api throws errors that carry
// their facts (src/core/errors.ts), the request they are about (`request`) and the service's own
// words, with a plain sentence a journal or a report can keep; the sentence for a service code the
// spec lists and every hint that names a command are made here, with this run's command builder
// (./suggest.ts), so a pasted hint reaches the same profile and services. main.ts prints every
// error through it; a command that shows an error inline (campaign create's wizard, events tail's
// document) does too. An error that is not about an API request keeps its own words.
import { CliError, ServiceError } from '../core/errors.js';
import { forTerminal } from '../core/sanitize.js';
import { SERVICE_LABEL } from '../config/settings.js';
import { sentenceForCode } from './service-codes.js';
import { createsCampaign } from '../api/submit-paths.js';
import { envNote, suggester, type SuggestRun } from '../core/suggest.js';

export interface ErrorWords {
  message: string;
  hint?: string;
}

/** How much of a service's own words goes into a sentence (--json carries them whole). */
const MAX_DETAIL_CHARS = 300;

const TRY_LATER = 'Try again later; if it keeps failing, contact the provider\'s support.';

/** The sentence and hint a person reads for `e`, made for this run. */
export function errorWords(e: CliError, run: SuggestRun): ErrorWords {
  const request = e.request;
  if (!request) return { message: e.message, hint: e.hint };
  const cmd = suggester(run);
  const f = e.facts;
  let message = e.message;
  // A code the spec lists gets its own sentence, the service's words after it (spec 000 section 7).
  const said = e instanceof ServiceError ? e.serviceMessage?.trim() : undefined;
  const sentence = e instanceof ServiceError && (f.code === 'REFUSED' || f.code === 'SERVICE_FAILED') ? sentenceForCode(f.serviceCode, cmd) : undefined;
  if (sentence) {
    const detail = said ? forTerminal(said, MAX_DETAIL_CHARS) : undefined;
    message = `${sentence}${detail && !sentence.includes(detail) ? ` (${detail})` : ''}`;
  }
  let hint: string | undefined;
  switch (f.code) {
    case 'AUTH':
      hint = `Check the key with \`${cmd('config', 'list')}\` and set the right one with \`${cmd('config', 'set-key', '--service', request.service)}\`${envNote(run)}.`;
      break;
    case 'NETWORK':
      hint = `Check the network and the base URL (\`${cmd('config', 'list')}\`).`;
      break;
    case 'DAILY_LIMIT':
      hint = 'Nothing more can be sent today; try again after the daily limit resets.';
      break;
    case 'RATE_LIMITED':
      hint = 'Wait a few seconds and run the command again.';
      break;
    case 'SERVICE_FAILED':
      if (!sentence) hint = TRY_LATER;
      break;
    case 'BAD_RESPONSE':
      // A write the service answered with success, in words mailctl cannot read: it was carried
      // out, most likely, and mailctl knows nothing of what it made. "Try again" would do it twice.
      if (request.method !== 'GET' && f.reached === 'yes' && !f.refused && f.status !== undefined && f.status >= 200 && f.status < 300) {
        const seen = createsCampaign(request)
          ? ` A campaign created so is not in \`${cmd('campaign', 'list')}\` (its code was in the answer); \`${cmd('report', 'list')}\` shows it once it has been sent.`
          : '';
        hint = `The service answered HTTP ${f.status} (success), so ${request.method} ${request.path} was most likely carried out: check before running it again (the service's back office).${seen}`;
        break;
      }
      if (request.problem === 'redirect') hint = `Check the base URL (\`${cmd('config', 'list')}\`): it should name the API host itself, without /v1.`;
      else if (request.problem === 'too-large') hint = `Check the base URL (\`${cmd('config', 'list')}\`): it should name the service itself.`;
      else if (request.problem === 'shape' || request.problem === 'too-deep') {
        hint = `If it keeps happening, check that the base URL names the ${SERVICE_LABEL[request.service]} (\`${cmd('config', 'list')}\`); \`-v\` shows each request. ${TRY_LATER}`;
      }
      break;
    default:
      break;
  }
  // A hint a caller added to the error (a resume line, the sender's fix) comes after.
  return { message, hint: [hint, e.hint].filter(Boolean).join('\n') || undefined };
}

// Every error code the campaign spec lists (section 7) and the contact-removal codes, each as
// a sentence saying what went wrong and what to do. Quoted meanings come from the spec. A
// sentence that names a command is a function of the run's command builder (./suggest.ts), so
// the command carries --profile/--sandbox when pasted. Words for people, so they live in the CLI
// layer: src/api throws the service's code in the error's facts, and ./error-text.ts puts the
// sentence in place of the API layer's plain one.
import { plainSuggest, type Suggest } from '../core/suggest.js';

type Sentence = string | ((cmd: Suggest) => string);

export const CAMPAIGN_CODES: Record<string, Sentence> = {
  '40001': (cmd) => `A campaign field is invalid (field error). Check the fields named below against \`${cmd('campaign', 'create', '--help')}\`.`,
  '40003': 'An email address is invalid. Correct the sender or recipient address and try again.',
  '40004': 'The domain is not allowed. Use a sender address on a domain your account may send from.',
  '40007': (cmd) => `The code (sn) is invalid: no such template, group or campaign. List them with \`${cmd('template', 'list')}\` or \`${cmd('groups', 'list')}\`.`,
  '40008': 'The file format is not supported. Upload a comma-separated CSV file (UTF-8).',
  '40009': 'The file is empty. Check that the file has a header line and at least one row.',
  '40010': 'The file is over the size limit. Split it into smaller files and import each.',
  '40011': 'The sender address is not verified. Verify it in the back office (sender settings) before using it, or choose an address that is verified.',
  '40012': (cmd) => `The balance is too low to send this campaign. Check it with \`${cmd('balance')}\` and top up in the back office.`,
  '40013': 'There are no recipients to send to. Check that the selected groups have members and are not all excluded.',
  '40014': 'The campaign content is invalid. Check the subject and html content.',
  '40015': 'The sending information is invalid. Check the sender name, sender address and schedule.',
  '40017': 'The balance is too low for the A/B test share. Lower the test proportion or top up in the back office.',
  '40019': 'The schedule time is wrong: it must be a valid time in the future. Give a later time (campaign create --at).',
  '40020': 'A date is in the wrong format. Use ISO 8601 (for example 2026-12-01T09:00:00Z).',
  '40303': (cmd) => `The campaign code is invalid for this operation (bad operation with invalid user state). Check the code and its status with \`${cmd('campaign', 'list', '--all')}\` (reports exist only for sent campaigns).`,
};

export const REMOVAL_CODES: Record<string, Sentence> = {
  '40050304': 'A custom field name in the filter does not exist. Check the field name in the back office.',
  '40050305': 'Neither filters nor email addresses were given. Pass --email or --where.',
  '40050306': 'A column name in the filter is wrong. Use NAME, MAIL_ADDRESS, DOMAIN, LISTSN or a custom field name.',
  '40050307': 'An operator in the filter is wrong. Use EQ, NOT_EQ, LIKE or NOT_LIKE.',
  '40050308': (cmd) => `The group to remove contacts from does not exist. Check the group code with \`${cmd('groups', 'list')}\`.`,
};

export function sentenceForCode(code: string | undefined, cmd: Suggest = plainSuggest): string | undefined {
  if (!code) return undefined;
  const s = Object.hasOwn(CAMPAIGN_CODES, code) ? CAMPAIGN_CODES[code] : Object.hasOwn(REMOVAL_CODES, code) ? REMOVAL_CODES[code] : undefined;
  return typeof s === 'function' ? s(cmd) : s;
}

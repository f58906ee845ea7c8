// The text of `mailctl help environment` and `mailctl help exit-codes`. Exit codes are listed from
// ExitCode itself, so a new code cannot be missing here (test/help-topics.test.ts checks each
// has its sentence).
import { ExitCode } from '../core/errors.js';
import { DEFAULT_CAMPAIGN_URL, DEFAULT_NOTIFY_URL } from '../config/settings.js';
import type { HELP_TOPICS } from './root-help.js';
import { packageDir } from '../core/version.js';
import { shellQuote } from '../core/suggest.js';

/** What each exit code means, by its name in ExitCode. */
export const EXIT_MEANINGS: Record<string, string> = {
  OK: 'success',
  FAILED: 'the service refused or failed (the message says why), or an operation ended in a failed state; also a full disk (code DISK: the message names the file, the hint the command that resumes or reruns)',
  USAGE: 'usage or invalid input (a flag that takes one value given twice included): nothing was sent',
  AUTH: 'auth or config: no key, the key refused (Forbidden), an unreadable config file',
  LIMIT: 'rate limit or network: the daily cap, unreachable, timed out (also a --timeout that ran out while waiting)',
  PARTIAL: 'partial: the operation ran, but some recipients, rows or campaigns failed (each is listed)',
  LOCKED: 'locked: another run holds the lock (report sync on the same folder, a send or automation on the same journal); try later (report sync: or wait with --wait-lock)',
  INTERRUPTED: 'interrupted (Ctrl-C, SIGTERM or SIGHUP; a second signal leaves at once); the message says how to resume where that is possible',
};

export const ENVIRONMENT: Array<[string, string]> = [
  ['MAILCTL_PROFILE', 'the profile to use (--profile beats it)'],
  ['MAILCTL_CONFIG_DIR', 'where the config file and all local state live (sandbox, send journals, completion cache); default $XDG_CONFIG_HOME/mailctl or ~/.config/mailctl'],
  ['MAILCTL_API_KEY', 'the key for both services'],
  ['MAILCTL_CAMPAIGN_API_KEY', 'the campaign-service key (beats MAILCTL_API_KEY)'],
  ['MAILCTL_NOTIFY_API_KEY', 'the notification-service key (beats MAILCTL_API_KEY)'],
  ['MAILCTL_CAMPAIGN_URL', `the campaign-service base URL, without /v1 (default ${DEFAULT_CAMPAIGN_URL})`],
  ['MAILCTL_NOTIFY_URL', `the notification-service base URL, without /v1 (default ${DEFAULT_NOTIFY_URL})`],
  ['MAILCTL_DEBUG', 'on an unexpected failure (a bug), also print the stack trace'],
  ['NO_COLOR', 'no colour (also when TERM=dumb or stderr is not a terminal)'],
  ['CI', 'a CI run: no spinners and no prompts, as with --no-input'],
];

/** Two columns, the second wrapped to 80 characters under itself. */
function table(rows: Array<[string, string]>): string {
  const w = Math.max(...rows.map(([k]) => k.length));
  const room = Math.max(30, 80 - w - 4);
  return rows
    .map(([k, v]) => {
      const lines: string[] = [];
      let line = '';
      for (const word of v.split(' ')) {
        if (line && line.length + 1 + word.length > room) {
          lines.push(line);
          line = word;
        } else line = line ? `${line} ${word}` : word;
      }
      lines.push(line);
      return lines.map((l, i) => `  ${(i ? '' : k).padEnd(w)}  ${l}`).join('\n');
    })
    .join('\n');
}

/** The files in examples/ (shipped in the package: package.json "files"), and what each is for. */
export const EXAMPLE_FILES: Array<[string, string]> = [
  ['contacts.csv', '150 contacts, header EMAIL,NAME,PLAN: import, campaign preflight/proof/preview --contacts'],
  ['campaign.json', 'a campaign for the group "Newsletter" (flat keys, html from newsletter.html): campaign create --file'],
  ['newsletter.html', 'a campaign body with ${NAME}: --html-file'],
  ['guests.csv', 'a one-time list, header EMAIL,NAME: campaign create --once --recipients-file'],
  ['recipients.csv', 'recipients with their own columns: send --recipients-file, automation trigger'],
  ['phones.csv', 'SMS recipients, header phone,country_code,code: send sms --recipients-file'],
  ['sms.txt', 'an SMS body with {{code}}: send sms --text-file'],
  ['webhook-payload.json', 'one webhook event body: webhook verify'],
  ['webhook-events.jsonl', 'events as `webhook listen --out` stores them: webhook replay'],
];

export function helpTopic(topic: keyof typeof HELP_TOPICS): string {
  if (topic === 'examples') {
    const dir = packageDir();
    const where = dir ? `${dir.replace(/\/$/, '')}/examples` : undefined;
    return `Example files

The examples in mailctl's help name files as examples/…, relative to the folder you run them in.
The files ship with mailctl${where ? `, in\n  ${where}\nCopy them into the folder you work in, to run the examples as written:\n  cp -R ${shellQuote(where)} .` : ' (in the examples/ folder of the installed package).'}
A contact list can also come from standard input:
  printf 'EMAIL,NAME\\nann.lee@example.com,Ann Lee\\n' | mailctl import - --group Newsletter --create-group

${table(EXAMPLE_FILES)}

Examples:
  mailctl help examples
  mailctl import examples/contacts.csv --group Newsletter --create-group --dry-run
`;
  }
  if (topic === 'environment') {
    return `Environment variables

${table(ENVIRONMENT)}

Flags beat the environment, which beats the profile (\`mailctl config list\` shows where each
value comes from). A MAILCTL_ variable set to the empty string counts as unset. Keys are never taken as
a flag: set them here or with \`mailctl config set-key\`.

Examples:
  MAILCTL_PROFILE=staging mailctl groups list
  MAILCTL_CONFIG_DIR=./try mailctl --sandbox doctor
  printenv NOTIFY_KEY | mailctl config set-key --service notify --with-key-stdin
`;
  }
  const codes = Object.entries(ExitCode).sort(([, a], [, b]) => a - b);
  return `Exit codes

${table(codes.map(([name, code]) => [String(code), EXIT_MEANINGS[name] ?? name.toLowerCase()]))}

With --json, a failure is one document on stdout: {"error": {"code", "message", "hint",
"exitCode"}}; its code (USAGE, AUTH, DAILY_LIMIT, NETWORK, REFUSED, PARTIAL, LOCKED…) is stable for
scripts. Commands that can end partly done (send, import, report sync, campaign delete…) say in
their --help what each code means for them.

Examples:
  mailctl send --to ci@example.com --subject smoke --html "<p>ok</p>"   # 0 once accepted
  mailctl groups create ""   # exit 2: invalid input, nothing sent
`;
}

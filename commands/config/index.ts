import { Argument, Option, type Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';
import { offer, type OfferContext } from '../../src/run/offer.js';
import { OUTPUT_FORMATS } from '../../src/core/output-formats.js';
import { TIME_ZONE_CODES } from '../../src/spec/timezones.js';

/** The settings (src/config/keys.ts SETTINGS; test/completion.test.ts keeps these equal), for completion. */
export const SETTING_NAMES = ['campaign-url', 'notify-url', 'from-address', 'from-name', 'footer-lang', 'timezone', 'output', 'sandbox', 'name-max-length', 'field-types'];
/** Values of the settings that have a fixed few. */
const SETTING_VALUES: Record<string, string[]> = { 'footer-lang': ['en', 'zh'], output: [...OUTPUT_FORMATS], sandbox: ['true', 'false'], timezone: TIME_ZONE_CODES.map((z) => z.iana) };
const setting = () => offer(new Argument('<setting>', SETTING_NAMES.join(', ')), SETTING_NAMES);

export function register(program: Command, action: ActionFactory): void {
  const c = program
    .command('config')
    .description('profiles, API keys and defaults')
    .addHelpText('after', `
Settings: campaign-url, notify-url, from-address, from-name, footer-lang, timezone, output,
sandbox, name-max-length, field-types. Keys are set with \`config set-key\` (hidden prompt or
stdin), never as an argument. The environment beats the profile (\`mailctl help environment\`).

Examples:
  printenv CAMPAIGN_KEY | mailctl config set-key --service campaign --with-key-stdin
  mailctl config set from-address news@example.com
  mailctl --profile staging config set timezone Asia/Taipei
  mailctl config list`);
  declareSet(c).action(action(() => import('./set.js')));
  declareGet(c).action(action(() => import('./get.js')));
  declareUnset(c).action(action(() => import('./unset.js')));
  declareList(c).action(action(() => import('./list.js')));
  declareSetKey(c).action(action(() => import('./set-key.js')));
  declareProfiles(c).action(action(() => import('./profiles.js')));
  declareUse(c).action(action(() => import('./use.js')));
  declareDeleteProfile(c).action(action(() => import('./delete-profile.js')));
  declarePath(c).action(action(() => import('./path.js')));
}

export function declareSet(c: CommandUnknownOpts) {
  return c.command('set').description('set a setting in the profile').addArgument(setting())
    .addArgument(offer(new Argument('<value>'), (x: OfferContext) => SETTING_VALUES[x.args[0]] ?? []))
    .option('--dry-run', 'check the value and show the change; write nothing')
    .addHelpText('after', `
output: how lists and records print when no flag says: auto (the default: a table on a
terminal, TSV piped), table, tsv, json (as --json, for every command) or csv (commands that
print a list or a record; others print as auto). --json, --csv, --output and --query beat it.

Examples:
  mailctl config set from-address news@example.com
  mailctl config set timezone Asia/Taipei
  mailctl --profile staging config set footer-lang zh
  mailctl config set field-types AGE:number,JOINED:date --dry-run
  mailctl config set output json`);
}

export function declareGet(c: CommandUnknownOpts) {
  return c.command('get').description('print one setting of the profile').addArgument(setting())
    .addHelpText('after', `
Examples:
  mailctl config set from-address news@example.com
  mailctl config get from-address`);
}

export function declareUnset(c: CommandUnknownOpts) {
  return c.command('unset').description('remove a setting from the profile').addArgument(setting())
    .option('--dry-run', 'show the change; write nothing')
    .addHelpText('after', `
Examples:
  mailctl config unset timezone --dry-run
  mailctl config unset timezone`);
}

export function declareList(c: CommandUnknownOpts) {
  return c.command('list').alias('ls').description('show the profile in effect, keys masked, with where each value comes from')
    .addHelpText('after', `
Examples:
  mailctl config list
  mailctl --profile staging config list --json`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareSetKey(c: CommandUnknownOpts) {
  return c.command('set-key')
    .description('store an API key (hidden prompt, or stdin with --with-key-stdin)')
    .addOption(offer(new Option('--service <service>', 'campaign, notify, or both (one shared key)').default('both'), ['campaign', 'notify', 'both']))
    .option('--with-key-stdin', 'read the key from standard input')
    .option('--dry-run', 'read and check the key, show where it would go; write nothing (the key is never shown)')
    .addHelpText('after', `
A key is printable ASCII without spaces; one holding a control character, a space or any other
character is refused (exit 3, nothing saved, the key not shown), as it is from MAILCTL_API_KEY,
MAILCTL_CAMPAIGN_API_KEY, MAILCTL_NOTIFY_API_KEY or a hand-edited config file.

Examples:
  mailctl config set-key --service campaign       # a hidden prompt (needs a terminal)
  printenv NOTIFY_KEY | mailctl config set-key --service notify --with-key-stdin
  printenv CAMPAIGN_KEY | mailctl --profile staging config set-key --with-key-stdin`);
}

export function declareProfiles(c: CommandUnknownOpts) {
  return c.command('profiles').description('list profiles')
    .addHelpText('after', `
Examples:
  mailctl config profiles
  mailctl config profiles --json`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareUse(c: CommandUnknownOpts) {
  return c.command('use').description('make a profile the default').argument('<profile>')
    .option('--dry-run', 'check the profile and show the change; write nothing')
    .addHelpText('after', `
Examples:
  mailctl --profile staging config set timezone Asia/Taipei     # makes the profile "staging"
  mailctl config use staging
  mailctl config use default`);
}

export function declareDeleteProfile(c: CommandUnknownOpts) {
  return c.command('delete-profile')
    .description('delete a profile and its keys')
    .argument('<profile>')
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
    .option('--dry-run', 'check the profile exists and show what would go; delete nothing')
    .addHelpText('after', `
Examples:
  mailctl --profile staging config set timezone Asia/Taipei
  mailctl config delete-profile staging --dry-run
  mailctl config delete-profile staging --yes`);
}

export function declarePath(c: CommandUnknownOpts) {
  return c.command('path').description('print the config file path')
    .addHelpText('after', `
Examples:
  mailctl config path
  MAILCTL_CONFIG_DIR=./other mailctl config path`);
}

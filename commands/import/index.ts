import { Option, type Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';
import type { OptsOf } from '../../src/cli/declared.js';
import { collect } from '../../src/core/collect.js';
import { offer } from '../../src/run/offer.js';
import { inheritParentOptions } from '../../src/cli/parent-options.js';

/** The options `import status` shares with `import` (commander hands them to `import`). */
const STATUS_OPTIONS: (keyof OptsOf<typeof declareStatus>)[] = ['wait', 'timeout', 'downloadFailures', 'force'];

export function register(program: Command, action: ActionFactory): void {
  const imp = declareImport(program).action(action(() => import('./file.js')));
  const status = action(() => import('./status.js'));
  declareStatus(imp).action(async (importSn, opts, cmd) => {
    await inheritParentOptions(cmd, STATUS_OPTIONS, 'mailctl import status IMPORT_SN [--wait] [--timeout DUR] [--download-failures [FILE]] [--force]');
    return status(importSn, opts, cmd);
  });
}

// `--group` is checked by the command, not commander: a required option here would also be
// demanded by `import status`.
export function declareImport(program: CommandUnknownOpts) {
  return program
    .command('import')
    .description('check a contacts CSV locally, upload it into a group, and wait for the result')
    .argument('<file>', 'CSV file with the header EMAIL,NAME[,custom fields…]; - reads standard input')
    .option('--group <name-or-code>', 'group to import into, by name or code (required)')
    .option('--create-group', 'create the group when no group has that name')
    .option('--rejects <file>', 'where rejected rows go, with their line and reason: those mailctl rejects, and those the service refuses once the import ends (default: <file>.rejects.csv beside the input)')
    .option('--strict', 'upload nothing when any row is rejected or the check warns (exit 2)')
    .option('--dry-run', 'check the file and show the requests a real run makes; send nothing, write no copy')
    .option('--wait', 'wait for the import to finish (default on a terminal)')
    .option('--no-wait', 'return once the file is uploaded')
    .option('--timeout <duration>', 'give up waiting after this long, e.g. 90s, 10m (default 30m)')
    .option('--webhook-url <url>', 'ask the service to POST the result here when the import ends')
    .option('--download-failures [file]', "also save the service's failure file as it sent it (default <file>.failures.csv)")
    .option('--field <name:type>', 'type of a custom field, checked locally: string, number or date (repeatable)', collect)
    .option('--name-max-length <n>', 'longest NAME accepted (default 100, or the profile setting name-max-length)')
    .addOption(offer(new Option('--encoding <encoding>', 'text encoding of the file: utf8, big5 or utf16le (default UTF-8; UTF-16 with a byte-order mark is detected)'), ['utf8', 'big5', 'utf16le', 'utf16be']))
    .option('--force', 'overwrite an existing failures file; replace a symbolic link at the rejects or failures path (never written through)')
    .addHelpText('after', `
Examples:
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  mailctl import examples/contacts.csv --group Newsletter --dry-run     # check, and show what would be sent
  mailctl import examples/contacts.csv --group Newsletter --strict --rejects rejected.csv --wait --timeout 10m
  printf 'EMAIL,NAME\\nann.lee@example.com,Ann Lee\\n' | mailctl import - --group Newsletter --no-wait`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

export function declareStatus(imp: CommandUnknownOpts) {
  return imp
    .command('status')
    .description('show an import by its code, or wait for it to finish')
    .argument('<import-sn>', 'import code, as printed when the import started')
    .option('--wait', 'wait until the import finishes')
    .option('--timeout <duration>', 'give up waiting after this long (default 30m)')
    .option('--download-failures [file]', "also save the service's failure file as it sent it (default import-<code>.failures.csv); an import started here adds its rows to its rejects file anyway")
    .option('--force', 'overwrite an existing failures file, or replace a symbolic link there (never written through)')
    .addHelpText('after', `
Examples:
  printf 'EMAIL,NAME\\nann.lee@example.com,Ann Lee\\n' | mailctl import - --group Newsletter --create-group --no-wait
  # IM123: the import code the line above printed
  mailctl import status IM123
  mailctl import status IM123 --wait --download-failures`)
    .option('--csv', 'print CSV with a header row, for spreadsheets');
}

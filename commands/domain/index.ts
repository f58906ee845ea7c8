import type { Command, CommandUnknownOpts } from '@commander-js/extra-typings';
import type { ActionFactory } from '../../src/cli/declared.js';

const NOTE = `
Based on public material about the service, not on its spec (the spec leaves sender-domain
settings "not shown"): adding, verifying and removing a domain (decisions row 21 describes the calls).`;

export function register(program: Command, action: ActionFactory): void {
  const d = program.command('domain').alias('domains').description('sender domains for transactional email (from public material, not the spec)')
    .addHelpText('after', `
Transactional email is accepted only from a verified domain: add it, publish the DNS records it
prints, then verify.

Examples:
  mailctl domain add mail.example.org
  mailctl domain verify mail.example.org
  mailctl send --to a@example.com --from news@mail.example.org --subject Hi --html "<p>Hi</p>"`);
  declareAdd(d).action(action(() => import('./add.js')));
  declareVerify(d).action(action(() => import('./verify.js')));
  declareRemove(d).action(action(() => import('./remove.js')));
}

export function declareAdd(d: CommandUnknownOpts) {
  return d.command('add')
    .description('add a sender domain and print the DNS records to publish')
    .argument('<domain>')
    .addHelpText('after', `
Prints the records as zone-file lines (paste them into the zone, or copy name/type/value into
your DNS provider's form); --json gives them as the service returned them. Then run
\`mailctl domain verify <domain>\` once DNS has updated.
${NOTE}

Examples:
  mailctl domain add mail.example.org
  mailctl domain add news.example.org --json
  mailctl domain add other.example.org --dry-run`)
    .option('--dry-run', 'show the request without sending it');
}

export function declareVerify(d: CommandUnknownOpts) {
  return d.command('verify')
    .description('ask the service to check the published DNS records')
    .argument('<domain>')
    .option('--dry-run', 'show the request without sending it')
    .addHelpText('after', `${NOTE}

Examples:
  mailctl domain add mail.example.org
  mailctl domain verify mail.example.org`);
}

export function declareRemove(d: CommandUnknownOpts) {
  return d.command('remove')
    .alias('rm')
    .description('remove a sender domain')
    .argument('<domain>')
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)')
    .option('--dry-run', 'show the request without sending it')
    .addHelpText('after', `${NOTE}

Examples:
  mailctl domain add mail.example.org
  mailctl domain remove mail.example.org --dry-run
  mailctl domain remove mail.example.org --yes`);
}

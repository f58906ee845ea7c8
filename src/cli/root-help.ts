// What `mailctl --help` shows after the list of commands: the common workflows as runnable lines
// (test/help-examples.test.ts runs them against the sandbox) and the help topics. Plain text with
// no imports: every start-up that shows help loads it.

export const HELP_TOPICS = {
  environment: 'environment variables: keys, URLs, profile, config folder, colour, CI',
  'exit-codes': 'what each exit code means, for scripts and alerting',
  examples: 'where the example files (examples/…) are installed, and what each holds',
} as const;

export const ROOT_HELP = `
Help topics:
${Object.entries(HELP_TOPICS).map(([t, what]) => `  mailctl help ${t.padEnd(12)} ${what}`).join('\n')}

Every example below works as is against the built-in sandbox, no account needed: add --sandbox
(mailctl --sandbox import …). CP123, IM123, LS123 stand for the codes mailctl prints. The files in
examples/ ship with mailctl: \`mailctl help examples\` says where, and how to copy them here.

A flag that takes a value is given once (twice is exit 2, nothing sent) unless its help says
"repeatable"; a flag without a value (--json, --dry-run, -q) may be repeated and means the same.

Examples — the common workflows:
  # import a contact list into a new group, and wait for the service's result
  mailctl import examples/contacts.csv --group Newsletter --create-group --wait
  # create a campaign from a JSON file and send it now (--dry-run shows the request instead)
  mailctl campaign create --file examples/campaign.json
  # from cron, keep a folder complete with every finished campaign's report files:
  #   17 * * * * mailctl report sync --out-dir /srv/reports >>/var/log/mailctl-sync.log 2>&1
  mailctl report sync --out-dir reports
  # a smoke test from CI: one transactional email, exit 0 once the service accepted it
  mailctl send --to ci@example.com --subject "smoke test" --html "<p>ok</p>"
`;

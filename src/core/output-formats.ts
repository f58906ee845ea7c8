// The output formats, in one place: `--output FORMAT` (src/cli/main.ts), the profile's `output`
// setting (src/config/keys.ts) and the choice between them (src/run/output/choice.ts). No imports:
// the root command reads this at every start-up.
export const OUTPUT_FORMATS = ['auto', 'table', 'tsv', 'json', 'csv'] as const;
export type OutputSetting = (typeof OUTPUT_FORMATS)[number];
/** What a run prints lists and records as; auto is resolved to table or tsv by the terminal. */
export type OutputFormat = Exclude<OutputSetting, 'auto'>;
